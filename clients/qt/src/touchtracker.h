// SPDX-License-Identifier: MIT
#pragma once

#include "contactmatcher.h"

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QRectF>
#include <QtCore/QTimer>
#include <QtGui/QEventPoint>

class QPointerEvent;
class QPointingDevice;
class QQuickItem;
class QQuickWindow;
struct PointEvent;

/// One per QQuickWindow that holds a ForceTouchArea: an event filter that sees the window's touch points
/// before Qt Quick delivers them, pairs them with the daemon's contacts (ContactMatcher), converts between
/// the daemon's screen pixels and the scene, and hands a point's exclusive grab to an area when that
/// point's contact peeked, showed quick actions or long-pressed. Internal.
class TouchTracker : public QObject
{
    Q_OBJECT
public:
    /// The window's tracker, made on first use (a child of the window).
    static TouchTracker *forWindow(QQuickWindow *window);
    /// Every tracker alive.
    static const QList<TouchTracker *> &all();
    ~TouchTracker() override;

    QQuickWindow *window() const { return m_window; }
    ContactMatcher &matcher() { return m_matcher; }
    const ContactMatcher &matcher() const { return m_matcher; }

    /// The daemon's screen pixels to scene coordinates, and back.
    QPointF daemonToScene(QPointF screen) const;
    QRectF sceneToDaemon(const QRectF &sceneRect) const;

    /// A daemon touch event (fed by Pressured for every touch it reads).
    void contactEvent(const PointEvent &event);
    /// The daemon went away: its contacts are forgotten.
    void daemonGone();

    /// Gives @p area the exclusive grab of the Qt point that is contact @p key: now, if it is paired and
    /// down, or as soon as it pairs. Whatever held it (an item, a pointer handler) gets a cancel.
    void requestGrab(quint64 key, QQuickItem *area);
    /// Whether @p area holds (or is to get) the grab of Qt point @p pointId.
    bool grabs(int pointId, const QQuickItem *area) const;
    /// The scene position where Qt point @p pointId was pressed, if it is known.
    bool pressPosition(int pointId, QPointF *scenePos) const;

signals:
    /// A touch (or mouse) press / release anywhere in the window, in scene coordinates, before delivery.
    void pointPressed(int pointId, QPointF scenePos);
    void pointReleased(int pointId, QPointF scenePos);
    void offsetChanged();
    /// Contact @p key and Qt point @p pointId, pressed at @p pressScene, were found to be the same finger.
    void paired(int pointId, quint64 key, QPointF pressScene);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    explicit TouchTracker(QQuickWindow *window);
    void grabNow(int pointId);
    void steal(QPointerEvent *event, const QEventPoint &point, QQuickItem *area);
    QPointF qtScreen(const QEventPoint &point) const;
    QPointF toScene(QPointF global) const;
    qreal dpr() const;

    struct Active
    {
        QEventPoint point;
        const QPointingDevice *device = nullptr;
        QPointF pressScene;
    };
    QQuickWindow *m_window;
    ContactMatcher m_matcher;
    QHash<int, Active> m_active;
    QHash<quint64, QPointer<QQuickItem>> m_grabByContact;
    QHash<int, QPointer<QQuickItem>> m_grabByPoint;
    QTimer m_expire;
};
