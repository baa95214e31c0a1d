// SPDX-License-Identifier: MIT
#include "forcetoucharea.h"

#include "pressuredsingleton.h"
#include "touchtracker.h"

#include <QtQuick/QQuickWindow>

#include <cmath>

ForceTouchArea::ForceTouchArea(QQuickItem *parent) : QQuickItem(parent)
{
    setAcceptTouchEvents(true); // only to receive the points it grabbed; it ignores every other
    setFlag(ItemHasContents, false);
    Pressured *p = Pressured::instance();
    m_spec.id = p->registerArea(this);
    m_spec.previews = true;
    m_spec.longPress = true;
    connect(p, &Pressured::devicesChanged, this, [this] {
        emit availableChanged();
        if (m_contacts.isEmpty() && m_maximumPossibleForce != Pressured::instance()->maximumPossibleForce()) {
            m_maximumPossibleForce = Pressured::instance()->maximumPossibleForce();
            emit maximumPossibleForceChanged();
        }
    });
    connect(p, &Pressured::connectedChanged, this, [this] { scheduleRegion(); });
}

ForceTouchArea::~ForceTouchArea()
{
    if (Pressured *p = Pressured::instance())
        p->unregisterArea(m_spec.id);
}

bool ForceTouchArea::available() const
{
    return Pressured::instance()->isConnected() && Pressured::instance()->forceAvailable();
}

#define REGION_SETTER(setter, member, type)                                                               \
    void ForceTouchArea::setter(type value)                                                               \
    {                                                                                                     \
        if (m_spec.member == value)                                                                       \
            return;                                                                                       \
        m_spec.member = value;                                                                            \
        emit regionChanged();                                                                             \
        scheduleRegion();                                                                                 \
    }
REGION_SETTER(setPreviews, previews, bool)
REGION_SETTER(setLongPress, longPress, bool)
REGION_SETTER(setApp, app, const QString &)
REGION_SETTER(setRegionZ, z, int)
REGION_SETTER(setHaptics, haptics, bool)
#undef REGION_SETTER

void ForceTouchArea::setQuickActions(const QVariantList &items)
{
    if (m_spec.items == items)
        return;
    m_spec.items = items;
    emit regionChanged();
    scheduleRegion();
}

void ForceTouchArea::setFillParent(bool on)
{
    if (m_fillParent == on)
        return;
    m_fillParent = on;
    emit fillParentChanged();
    followParent();
}

void ForceTouchArea::componentComplete()
{
    QQuickItem::componentComplete();
    m_completed = true;
    followParent();
    attachWindow(window());
    scheduleRegion();
}

void ForceTouchArea::followParent()
{
    if (m_followed)
        disconnect(m_followed, nullptr, this, nullptr);
    m_followed = m_fillParent ? parentItem() : nullptr;
    if (!m_followed)
        return;
    auto fit = [this] {
        if (m_followed)
            setSize(m_followed->size());
        setPosition(QPointF(0, 0));
    };
    connect(m_followed, &QQuickItem::widthChanged, this, fit);
    connect(m_followed, &QQuickItem::heightChanged, this, fit);
    fit();
}

void ForceTouchArea::attachWindow(QQuickWindow *window)
{
    for (const auto &c : std::as_const(m_windowConnections))
        disconnect(c);
    m_windowConnections.clear();
    m_window = window;
    if (!window) {
        scheduleRegion();
        return;
    }
    TouchTracker *t = TouchTracker::forWindow(window);
    connect(t, &TouchTracker::paired, Pressured::instance(), &Pressured::contactPaired, Qt::UniqueConnection);
    // Every frame: an ancestor may have moved (a ListView scrolled, a parent animated).
    m_windowConnections << connect(window, &QQuickWindow::afterAnimating, this, &ForceTouchArea::syncRegion)
                        << connect(window, &QWindow::visibleChanged, this, &ForceTouchArea::scheduleRegion)
                        << connect(t, &TouchTracker::offsetChanged, this, &ForceTouchArea::scheduleRegion)
                        << connect(t, &TouchTracker::pointPressed, this,
                                   [this](int id, QPointF scene) {
                                       if (!isVisible() || !isEnabled() || !contains(mapFromScene(scene)))
                                           return;
                                       const bool was = isPressed();
                                       m_pressedPoints.insert(id);
                                       if (!was)
                                           emit pressedChanged();
                                   })
                        << connect(t, &TouchTracker::pointReleased, this, [this](int id, QPointF) {
                               if (m_pressedPoints.remove(id) && !isPressed())
                                   emit pressedChanged();
                           });
    scheduleRegion();
}

void ForceTouchArea::itemChange(ItemChange change, const ItemChangeData &value)
{
    QQuickItem::itemChange(change, value);
    switch (change) {
    case ItemSceneChange:
        if (m_completed)
            attachWindow(value.window);
        break;
    case ItemParentHasChanged:
        if (m_completed)
            followParent();
        break;
    case ItemVisibleHasChanged:
    case ItemEnabledHasChanged:
        if (!isVisible() || !isEnabled()) {
            const bool was = isPressed();
            m_pressedPoints.clear();
            if (was != isPressed())
                emit pressedChanged();
        }
        scheduleRegion();
        break;
    default:
        break;
    }
}

void ForceTouchArea::geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry)
{
    QQuickItem::geometryChange(newGeometry, oldGeometry);
    scheduleRegion();
}

void ForceTouchArea::scheduleRegion()
{
    m_regionDirty = true;
    if (m_completed)
        syncRegion();
}

void ForceTouchArea::syncRegion()
{
    Pressured *p = Pressured::instance();
    const bool visible = m_completed && m_window && m_window->isVisible() && isVisible() && isEnabled()
        && width() > 0 && height() > 0;
    RegionSpec spec = m_spec;
    if (visible) {
        const QRectF r = TouchTracker::forWindow(m_window)->sceneToDaemon(mapRectToScene(boundingRect()));
        auto round2 = [](qreal v) { return std::round(v * 100) / 100; };
        spec.rect = QRectF(round2(r.x()), round2(r.y()), round2(r.width()), round2(r.height()));
        spec.quickActions = !spec.items.isEmpty() || !spec.app.isEmpty();
    }
    const bool registered = visible && p->isConnected();
    if (!m_regionDirty && registered == m_registered && (!registered || spec.rect == m_spec.rect))
        return;
    m_regionDirty = false;
    p->updateRegion(spec, visible);
    const bool changed = registered != m_registered || spec.rect != m_spec.rect;
    m_spec.rect = spec.rect;
    m_spec.quickActions = spec.quickActions;
    m_registered = registered;
    if (changed)
        emit screenRectChanged();
}

QPointF ForceTouchArea::itemPoint(const PointEvent &e, TouchTracker *tracker) const
{
    return tracker ? mapFromScene(tracker->daemonToScene(e.screen)) : QPointF();
}

void ForceTouchArea::setForce(double force, QPointF point)
{
    if (force == m_force)
        return;
    m_force = force;
    emit forceChanged(point);
}

void ForceTouchArea::setProgress(double peek, double pop)
{
    if (peek != m_peekProgress) {
        m_peekProgress = peek;
        emit peekProgressChanged();
    }
    if (pop != m_popProgress) {
        m_popProgress = pop;
        emit popProgressChanged();
    }
}

void ForceTouchArea::setPeeking(bool on)
{
    if (on == m_peeking)
        return;
    m_peeking = on;
    emit peekingChanged();
}

void ForceTouchArea::handleTouch(const PointEvent &e, TouchTracker *tracker)
{
    const bool wasPressed = isPressed();
    handleContact(e, tracker);
    if (isPressed() != wasPressed)
        emit pressedChanged();
}

void ForceTouchArea::handleContact(const PointEvent &e, TouchTracker *tracker)
{
    const quint64 key = e.key();
    if (e.phase == PointEvent::Began) {
        m_contacts.insert(key, Contact{});
        if (!m_current)
            m_current = key;
    }
    auto it = m_contacts.find(key);
    if (it == m_contacts.end())
        return;
    it->force = e.force;
    if (key == m_current) {
        if (e.maximumPossibleForce != m_maximumPossibleForce) {
            m_maximumPossibleForce = e.maximumPossibleForce;
            emit maximumPossibleForceChanged();
        }
        if (!it->done && e.progress >= 0)
            setProgress(it->peeking ? 1 : e.progress, it->peeking ? e.progress : 0);
        setForce(e.isEnd() ? 0 : e.force, itemPoint(e, tracker));
    }
    if (e.isEnd()) {
        m_contacts.erase(it);
        if (key == m_current) {
            m_current = m_contacts.isEmpty() ? 0 : m_contacts.constBegin().key();
            if (!m_current) {
                setProgress(0, 0);
                setPeeking(false);
            }
        }
    }
}

void ForceTouchArea::handleGesture(const PointEvent &e, TouchTracker *tracker)
{
    const quint64 key = e.key();
    const bool wasPressed = isPressed();
    Contact &c = m_contacts[key];
    if (!wasPressed)
        emit pressedChanged();
    if (!m_current)
        m_current = key;
    const QPointF point = itemPoint(e, tracker);
    // The daemon answered this finger: it must not also click what lies beneath.
    if (e.takesTouch() && tracker)
        tracker->requestGrab(key, this);
    switch (e.kind) {
    case PointEvent::Peek:
        c.peeking = true;
        setProgress(1, 0);
        setPeeking(true);
        emit peeked(point);
        break;
    case PointEvent::Pop:
        c.peeking = false;
        c.done = true;
        setProgress(1, 1);
        setPeeking(false);
        emit popped(point);
        break;
    case PointEvent::Dismiss:
        c.peeking = false;
        setPeeking(false);
        setProgress(0, 0);
        emit dismissed(point);
        break;
    case PointEvent::QuickActions:
        c.done = true;
        emit quickActionsShown(point, e.items);
        break;
    case PointEvent::LongPress:
        c.done = true;
        emit longPressed(point);
        break;
    case PointEvent::Touch:
        break;
    }
}

bool ForceTouchArea::wants(PointEvent::Kind kind) const
{
    switch (kind) {
    case PointEvent::Peek:
    case PointEvent::Pop:
    case PointEvent::Dismiss: return m_spec.previews;
    case PointEvent::LongPress: return m_spec.longPress;
    case PointEvent::QuickActions: return !m_spec.items.isEmpty() || !m_spec.app.isEmpty();
    case PointEvent::Touch: return true;
    }
    return false;
}

void ForceTouchArea::daemonGone()
{
    const bool wasPressed = isPressed();
    m_contacts.clear();
    if (isPressed() != wasPressed)
        emit pressedChanged();
    m_current = 0;
    setForce(0, QPointF());
    setProgress(0, 0);
    if (m_peeking) {
        setPeeking(false);
        emit dismissed(QPointF());
    }
    if (m_registered) {
        m_registered = false;
        emit screenRectChanged();
    }
    emit availableChanged();
}

bool ForceTouchArea::grabbing(int pointId) const
{
    return m_window && TouchTracker::forWindow(m_window)->grabs(pointId, this);
}

void ForceTouchArea::touchEvent(QTouchEvent *event)
{
    // Points it grabbed come here (and are taken); every other point goes on to what lies beneath.
    bool any = false;
    for (const QEventPoint &pt : event->points()) {
        if (pt.state() != QEventPoint::Pressed && (event->exclusiveGrabber(pt) == this || grabbing(pt.id())))
            any = true;
    }
    event->setAccepted(any);
}

void ForceTouchArea::mousePressEvent(QMouseEvent *event)
{
    event->ignore();
}

void ForceTouchArea::mouseReleaseEvent(QMouseEvent *event)
{
    event->ignore();
}

void ForceTouchArea::touchUngrabEvent()
{
}
