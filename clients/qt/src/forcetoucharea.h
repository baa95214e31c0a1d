// SPDX-License-Identifier: MIT
#pragma once

#include "connection.h"
#include "pointevent.h"

#include <QtCore/QHash>
#include <QtCore/QSet>
#include <QtQml/qqmlregistration.h>
#include <QtQuick/QQuickItem>

class TouchTracker;

/// An area that gets force and 3D-Touch gestures (peek, pop, dismiss, quick actions, long press) of the
/// touches that begin on it, from the pressured daemon.
///
/// It fills its parent (like `anchors.fill: parent`, unless `fillParent` is false) and registers its
/// screen rectangle as a pressured region, moving or removing it as the item moves, hides, is disabled or
/// goes away, so the daemon sends this app the gestures of touches that begin on it; AreaRouter gives each
/// touch to the area Qt saw the finger land on. It does not take ordinary touches: items
/// and handlers beneath (Button, MouseArea, TapHandler) click as before. But on `peeked`,
/// `quickActionsShown` and `longPressed` it takes the exclusive grab of that finger's Qt touch point,
/// so what held it is cancelled and does not click when the finger lifts.
///
/// Signals carry the point in item coordinates. Without a daemon it is a plain area: `pressed` follows
/// touches, `force` stays 0 and no gesture comes.
class ForceTouchArea : public QQuickItem
{
    Q_OBJECT
    QML_ELEMENT
    /// The force of the touch on the area (the first one still down): 1.0 an average touch; 0 without one
    /// or where force is unavailable.
    Q_PROPERTY(qreal force READ force NOTIFY forceChanged)
    /// The force at the top of the device's range; 0 where force is unavailable.
    Q_PROPERTY(qreal maximumPossibleForce READ maximumPossibleForce NOTIFY maximumPossibleForceChanged)
    /// Whether force is available for touches here (a device has force and the daemon serves).
    Q_PROPERTY(bool available READ available NOTIFY availableChanged)
    /// Whether a finger (or mouse button) that began on the area is down: a Qt touch point that landed
    /// on it, or, with a daemon, a contact of the daemon's that belongs to it (so it is true whenever
    /// `force` is above 0).
    Q_PROPERTY(bool pressed READ isPressed NOTIFY pressedChanged)
    /// 0…1 towards the peek; 1 once peeking.
    Q_PROPERTY(qreal peekProgress READ peekProgress NOTIFY peekProgressChanged)
    /// 0 before the peek, then 0…1 towards the pop; 1 once popped.
    Q_PROPERTY(qreal popProgress READ popProgress NOTIFY popProgressChanged)
    /// Whether a preview is showing (between `peeked` and `popped`/`dismissed`).
    Q_PROPERTY(bool peeking READ isPeeking NOTIFY peekingChanged)
    /// Whether the area wants peek, pop and dismiss (default true).
    Q_PROPERTY(bool previews READ previews WRITE setPreviews NOTIFY regionChanged)
    /// Whether the area wants long presses (default true).
    Q_PROPERTY(bool longPress READ longPress WRITE setLongPress NOTIFY regionChanged)
    /// The area's own quick actions: a list of {id, title, subtitle, icon}. Non-empty (or `app` set)
    /// makes it an icon: a swipe up while peeking (with `app`: the peek itself) shows them.
    Q_PROPERTY(QVariantList quickActions READ quickActions WRITE setQuickActions NOTIFY regionChanged)
    /// The app this area is the icon of: the daemon adds that app's quick actions before the area's own.
    Q_PROPERTY(QString app READ app WRITE setApp NOTIFY regionChanged)
    /// Stacking among areas that overlap: the higher wins; equal, the inner one (whose parent lies inside
    /// the other's parent); neither inside the other, the one created later. Default 0.
    Q_PROPERTY(int regionZ READ regionZ WRITE setRegionZ NOTIFY regionChanged)
    /// Whether the daemon plays haptic effects for touches here (default true).
    Q_PROPERTY(bool haptics READ haptics WRITE setHaptics NOTIFY regionChanged)
    /// Whether the area keeps its parent's geometry (default true).
    Q_PROPERTY(bool fillParent READ fillParent WRITE setFillParent NOTIFY fillParentChanged)
    /// The region as registered, in the daemon's screen pixels (empty while not registered).
    Q_PROPERTY(QRectF screenRect READ screenRect NOTIFY screenRectChanged)

public:
    explicit ForceTouchArea(QQuickItem *parent = nullptr);
    ~ForceTouchArea() override;

    qreal force() const { return m_force; }
    qreal maximumPossibleForce() const { return m_maximumPossibleForce; }
    bool available() const;
    bool isPressed() const { return !m_pressedPoints.isEmpty() || !m_contacts.isEmpty(); }
    qreal peekProgress() const { return m_peekProgress; }
    qreal popProgress() const { return m_popProgress; }
    bool isPeeking() const { return m_peeking; }
    bool previews() const { return m_spec.previews; }
    void setPreviews(bool on);
    bool longPress() const { return m_spec.longPress; }
    void setLongPress(bool on);
    QVariantList quickActions() const { return m_spec.items; }
    void setQuickActions(const QVariantList &items);
    QString app() const { return m_spec.app; }
    void setApp(const QString &app);
    int regionZ() const { return m_spec.z; }
    void setRegionZ(int z);
    bool haptics() const { return m_spec.haptics; }
    void setHaptics(bool on);
    bool fillParent() const { return m_fillParent; }
    void setFillParent(bool on);
    QRectF screenRect() const { return m_registered ? m_spec.rect : QRectF(); }

    // For Pressured.
    QString regionId() const { return m_spec.id; }
    void handleTouch(const PointEvent &event, TouchTracker *tracker);
    void handleGesture(const PointEvent &event, TouchTracker *tracker);
    /// The order areas were created in (the later wins among equals).
    int creationOrder() const { return m_spec.id.mid(3).toInt(); }
    /// Whether the area wants gestures of @p kind (`previews`, `longPress`, quick actions).
    bool wants(PointEvent::Kind kind) const;
    void daemonGone();

signals:
    void forceChanged(QPointF point);
    void maximumPossibleForceChanged();
    void availableChanged();
    void pressedChanged();
    void peekProgressChanged();
    void popProgressChanged();
    void peekingChanged();
    void regionChanged();
    void fillParentChanged();
    void screenRectChanged();
    /// The touch's force reached the peek threshold: show a preview.
    void peeked(QPointF point);
    /// The peeking touch reached the pop threshold: open the item.
    void popped(QPointF point);
    /// The peeking touch lifted or was cancelled: close the preview.
    void dismissed(QPointF point);
    /// Show the quick actions @p items ({id, title, subtitle, icon}) at @p point.
    void quickActionsShown(QPointF point, const QVariantList &items);
    /// The touch stayed still for the long-press time without peeking.
    void longPressed(QPointF point);

protected:
    void itemChange(ItemChange change, const ItemChangeData &value) override;
    void geometryChange(const QRectF &newGeometry, const QRectF &oldGeometry) override;
    void componentComplete() override;
    void touchEvent(QTouchEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void touchUngrabEvent() override;

private:
    struct Contact
    {
        double force = 0;
        bool peeking = false;
        bool done = false;  ///< popped, quick actions or long press: no further progress
    };
    void attachWindow(QQuickWindow *window);
    void followParent();
    void scheduleRegion();
    void syncRegion();
    void setForce(double force, QPointF point);
    void setProgress(double peek, double pop);
    void setPeeking(bool on);
    void handleContact(const PointEvent &event, TouchTracker *tracker);
    QPointF itemPoint(const PointEvent &event, TouchTracker *tracker) const;
    bool grabbing(int pointId) const;

    RegionSpec m_spec;
    bool m_registered = false;
    bool m_fillParent = true;
    bool m_completed = false;
    bool m_regionDirty = true;
    double m_force = 0;
    double m_maximumPossibleForce = 0;
    double m_peekProgress = 0;
    double m_popProgress = 0;
    bool m_peeking = false;
    quint64 m_current = 0;            ///< the contact force follows
    QHash<quint64, Contact> m_contacts;
    QSet<int> m_pressedPoints;
    QPointer<QQuickWindow> m_window;
    QPointer<QQuickItem> m_followed;
    QList<QMetaObject::Connection> m_windowConnections;
};
