// SPDX-License-Identifier: MIT
#pragma once

#include "pointevent.h"

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QObject>
#include <QtCore/QPointer>

class ForceTouchArea;
class TouchTracker;

/// Decides which ForceTouchArea each daemon contact belongs to, and delivers its touch and gesture events
/// there. Internal.
///
/// A contact belongs to the area Qt saw its finger land on: the Qt point it is paired with (ContactMatcher)
/// and that point's press position in the scene. That needs no offset between the daemon's screen and the
/// window, so it is right from a window's first touch, while the regions the daemon routed by may still
/// sit where Qt guessed the window. Until the contact pairs, its events are held (pairing comes at Qt's
/// press, a few milliseconds from the daemon's `began`); a contact still unpaired after `matchTime` (and a margin)
/// goes to the area whose registered region holds it, but only once an offset was learned: before that
/// the regions may be anyone's place, and the finger was on no window of ours anyway.
///
/// Among areas that hold a point: the higher `regionZ`; equal, the inner one (an area whose parent lies
/// inside the other's parent); neither inside the other, the one created later. Disabled and hidden areas
/// hold nothing, and an area hears only the gestures it wants.
class AreaRouter : public QObject
{
    Q_OBJECT
public:
    explicit AreaRouter(QObject *parent = nullptr) : QObject(parent) { }

    void addArea(const QString &id, ForceTouchArea *area) { m_areas.insert(id, area); }
    void removeArea(const QString &id) { m_areas.remove(id); }
    const QHash<QString, QPointer<ForceTouchArea>> &areas() const { return m_areas; }
    void setMatchTime(int ms) { m_matchTime = ms; }

    /// One daemon touch or gesture: delivered to its contact's area now, or held until that is known.
    void route(const PointEvent &event);
    /// Contact @p key was paired with a Qt point of @p tracker's window pressed at @p pressScene.
    void paired(TouchTracker *tracker, quint64 key, QPointF pressScene);
    /// The daemon went away: every route is forgotten (the areas end their contacts themselves).
    void clear();

    /// The area above all others of @p candidates by the rule above; null for none.
    static ForceTouchArea *topmost(const QList<ForceTouchArea *> &candidates);

private:
    struct Route
    {
        QPointer<ForceTouchArea> area;
        TouchTracker *tracker = nullptr;
        bool resolved = false;
        QList<PointEvent> held;
    };
    void resolve(quint64 key, ForceTouchArea *area, TouchTracker *tracker);
    void settle(quint64 key);
    bool resolveFromPair(quint64 key);
    void deliver(const Route &route, const PointEvent &event);

    QHash<QString, QPointer<ForceTouchArea>> m_areas;
    QHash<quint64, Route> m_routes;
    int m_matchTime = 300;
    /// Beyond matchTime before an unpaired contact is settled: the two clocks' begins are read apart.
    static constexpr int settleMarginMs = 100;
};
