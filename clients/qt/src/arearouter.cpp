// SPDX-License-Identifier: MIT
#include "arearouter.h"

#include "forcetoucharea.h"
#include "touchtracker.h"

#include <QtCore/QTimer>
#include <QtQuick/QQuickWindow>

static bool holds(const ForceTouchArea *a)
{
    return a && a->isVisible() && a->isEnabled() && a->window() && a->window()->isVisible();
}

/// Whether @p a lies inside @p b: its parent is inside b's parent (a card's Button inside the card).
static bool inside(const ForceTouchArea *a, const ForceTouchArea *b)
{
    const QQuickItem *pa = a->parentItem(), *pb = b->parentItem();
    return pa && pb && pa != pb && pb->isAncestorOf(pa);
}

ForceTouchArea *AreaRouter::topmost(const QList<ForceTouchArea *> &candidates)
{
    ForceTouchArea *best = nullptr;
    for (ForceTouchArea *a : candidates) {
        if (!best || a->regionZ() > best->regionZ()) {
            best = a;
        } else if (a->regionZ() == best->regionZ()) {
            if (inside(a, best) || (!inside(best, a) && a->creationOrder() > best->creationOrder()))
                best = a;
        }
    }
    return best;
}

void AreaRouter::route(const PointEvent &e)
{
    const quint64 key = e.key();
    auto it = m_routes.find(key);
    if (it == m_routes.end()) {
        it = m_routes.insert(key, Route{});
        if (!resolveFromPair(key))
            QTimer::singleShot(m_matchTime + settleMarginMs, Qt::PreciseTimer, this, [this, key] { settle(key); });
        it = m_routes.find(key);
    }
    if (it->resolved)
        deliver(*it, e);
    else
        it->held.append(e);
    if (e.isEnd()) {
        settle(key);
        m_routes.remove(key);
    }
}

bool AreaRouter::resolveFromPair(quint64 key)
{
    for (TouchTracker *t : TouchTracker::all()) {
        const int point = t->matcher().pairedPoint(key);
        QPointF scene;
        if (point >= 0 && t->pressPosition(point, &scene)) {
            paired(t, key, scene);
            return true;
        }
    }
    return false;
}

void AreaRouter::paired(TouchTracker *tracker, quint64 key, QPointF scene)
{
    auto it = m_routes.constFind(key);
    if (it != m_routes.constEnd() && it->resolved)
        return;
    QList<ForceTouchArea *> under;
    for (const auto &a : std::as_const(m_areas)) {
        if (holds(a) && a->window() == tracker->window() && a->contains(a->mapFromScene(scene)))
            under.append(a);
    }
    resolve(key, topmost(under), tracker);
}

void AreaRouter::settle(quint64 key)
{
    auto it = m_routes.constFind(key);
    if (it == m_routes.constEnd() || it->resolved)
        return;
    // Never paired: the regions are right only once some window learned where the daemon sees it.
    bool learned = false;
    for (TouchTracker *t : TouchTracker::all())
        learned = learned || t->matcher().samples() > 0;
    const PointEvent *first = it->held.isEmpty() ? nullptr : &it->held.first();
    QList<ForceTouchArea *> under;
    if (learned && first) {
        for (const auto &a : std::as_const(m_areas))
            if (holds(a) && a->screenRect().contains(first->screen))
                under.append(a);
    }
    ForceTouchArea *area = topmost(under);
    resolve(key, area, area ? TouchTracker::forWindow(area->window()) : nullptr);
}

void AreaRouter::resolve(quint64 key, ForceTouchArea *area, TouchTracker *tracker)
{
    Route &r = m_routes[key];
    r.area = area;
    r.tracker = tracker;
    r.resolved = true;
    const QList<PointEvent> held = std::exchange(r.held, {});
    for (const PointEvent &e : held) {
        auto it = m_routes.constFind(key);
        if (it == m_routes.constEnd())
            return;
        deliver(*it, e);
    }
}

void AreaRouter::deliver(const Route &route, const PointEvent &e)
{
    ForceTouchArea *area = route.area;
    if (!area)
        return;
    if (!e.isGesture())
        area->handleTouch(e, route.tracker);
    else if (holds(area) && area->wants(e.kind))
        area->handleGesture(e, route.tracker);
}

void AreaRouter::clear()
{
    m_routes.clear();
}
