// SPDX-License-Identifier: MIT
#include "touchtracker.h"

#include "connection.h"
#include "pointevent.h"

#include <QtGui/QMouseEvent>
#include <QtGui/QPointingDevice>
#include <QtGui/QTouchEvent>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>

static QList<TouchTracker *> &trackers()
{
    static QList<TouchTracker *> list;
    return list;
}

const QList<TouchTracker *> &TouchTracker::all()
{
    return trackers();
}

TouchTracker *TouchTracker::forWindow(QQuickWindow *window)
{
    if (!window)
        return nullptr;
    for (TouchTracker *t : trackers())
        if (t->m_window == window)
            return t;
    return new TouchTracker(window);
}

TouchTracker::TouchTracker(QQuickWindow *window) : QObject(window), m_window(window)
{
    trackers().append(this);
    window->installEventFilter(this);
    m_matcher.onMatched = [this](int pointId, quint64 key) {
        if (auto a = m_active.constFind(pointId); a != m_active.constEnd())
            emit paired(pointId, key, a->pressScene);
        auto it = m_grabByContact.constFind(key);
        if (it != m_grabByContact.constEnd() && *it) {
            m_grabByPoint.insert(pointId, *it);
            // The gesture came first; the press is being delivered now: take the grab right after it.
            QMetaObject::invokeMethod(this, [this, pointId] { grabNow(pointId); }, Qt::QueuedConnection);
        }
    };
    m_matcher.onOffsetChanged = [this] { emit offsetChanged(); };
    m_expire.setInterval(500);
    connect(&m_expire, &QTimer::timeout, this, [this] {
        m_matcher.expire(PressuredConnection::nowMs());
        for (auto it = m_grabByContact.begin(); it != m_grabByContact.end();)
            it = it.value() ? std::next(it) : m_grabByContact.erase(it);
    });
    m_expire.start();
    connect(window, &QWindow::xChanged, this, &TouchTracker::offsetChanged);
    connect(window, &QWindow::yChanged, this, &TouchTracker::offsetChanged);
}

TouchTracker::~TouchTracker()
{
    trackers().removeOne(this);
}

qreal TouchTracker::dpr() const
{
    return m_window->devicePixelRatio();
}

QPointF TouchTracker::qtScreen(const QEventPoint &point) const
{
    return point.globalPosition() * dpr();
}

QPointF TouchTracker::toScene(QPointF global) const
{
    // Not the event's scenePosition(): before Qt Quick delivers an event (where this filter sees it), that
    // is not yet the scene's but the screen's.
    return m_window->contentItem()->mapFromGlobal(global);
}

QPointF TouchTracker::daemonToScene(QPointF screen) const
{
    const QPointF global = m_matcher.toQt(screen) / dpr();
    return m_window->contentItem()->mapFromGlobal(global);
}

QRectF TouchTracker::sceneToDaemon(const QRectF &r) const
{
    QQuickItem *root = m_window->contentItem();
    const QPointF a = m_matcher.toDaemon(root->mapToGlobal(r.topLeft()) * dpr());
    const QPointF b = m_matcher.toDaemon(root->mapToGlobal(r.bottomRight()) * dpr());
    return QRectF(a, b).normalized();
}

void TouchTracker::contactEvent(const PointEvent &e)
{
    m_matcher.setCounting(true);
    switch (e.phase) {
    case PointEvent::Began: m_matcher.contactBegan(e.key(), e.screen, e.arrivalMs); break;
    case PointEvent::Moved: m_matcher.contactMoved(e.key(), e.screen); break;
    case PointEvent::Ended:
    case PointEvent::Cancelled:
        m_matcher.contactEnded(e.key(), e.arrivalMs);
        m_grabByContact.remove(e.key());
        break;
    default: break;
    }
}

void TouchTracker::daemonGone()
{
    m_matcher.clearContacts();
    m_matcher.setCounting(false);
    m_grabByContact.clear();
}

void TouchTracker::requestGrab(quint64 key, QQuickItem *area)
{
    m_grabByContact.insert(key, area);
    const int pointId = m_matcher.pointFor(key);
    if (pointId < 0)
        return; // not paired (yet): onMatched grabs
    m_grabByPoint.insert(pointId, area);
    grabNow(pointId);
}

bool TouchTracker::grabs(int pointId, const QQuickItem *area) const
{
    return m_grabByPoint.value(pointId) == area;
}

bool TouchTracker::pressPosition(int pointId, QPointF *scenePos) const
{
    auto it = m_active.constFind(pointId);
    if (it == m_active.constEnd())
        return false;
    *scenePos = it->pressScene;
    return true;
}

void TouchTracker::grabNow(int pointId)
{
    auto it = m_active.constFind(pointId);
    QQuickItem *area = m_grabByPoint.value(pointId);
    if (it == m_active.constEnd() || !area || !it->device)
        return; // lifted already, or the area is gone
    // Outside delivery there is no event to grab through: a stand-in carrying the same point on the same
    // device does, since grabs live in the device's record of the point, which the stand-in shares.
    QTouchEvent standIn(QEvent::TouchUpdate, it->device, Qt::NoModifier, QList<QEventPoint>{ it->point });
    steal(&standIn, it->point, area);
}

void TouchTracker::steal(QPointerEvent *event, const QEventPoint &point, QQuickItem *area)
{
    // Passive grabbers (TapHandler's default DragThreshold policy) would still see the release and tap:
    // each is made the exclusive grabber for a moment so that taking the grab from it cancels it.
    const auto passive = event->passiveGrabbers(point);
    for (const QPointer<QObject> &g : passive) {
        if (!g || g == area)
            continue;
        event->setExclusiveGrabber(point, g);
        event->setExclusiveGrabber(point, area);
        event->removePassiveGrabber(point, g);
    }
    if (event->exclusiveGrabber(point) != area)
        event->setExclusiveGrabber(point, area);
}

bool TouchTracker::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_window)
        return false;
    switch (event->type()) {
    case QEvent::TouchBegin:
    case QEvent::TouchUpdate:
    case QEvent::TouchEnd:
    case QEvent::TouchCancel: {
        auto *te = static_cast<QTouchEvent *>(event);
        const qint64 now = PressuredConnection::nowMs();
        const bool cancel = event->type() == QEvent::TouchCancel;
        for (const QEventPoint &pt : te->points()) {
            const int id = pt.id();
            const QPointF scene = toScene(pt.globalPosition());
            if (pt.state() == QEventPoint::Pressed) {
                m_grabByPoint.remove(id);
                m_active.insert(id, Active{ pt, te->pointingDevice(), scene });
                emit pointPressed(id, scene);
                m_matcher.qtPressed(id, qtScreen(pt), now);
                continue;
            }
            auto it = m_active.find(id);
            if (it != m_active.end()) {
                it->point = pt;
                it->device = te->pointingDevice();
            }
            if (QQuickItem *area = m_grabByPoint.value(id); area && !cancel)
                steal(te, pt, area); // before Qt Quick delivers it: the release reaches the area alone
            if (pt.state() == QEventPoint::Released || cancel) {
                m_matcher.qtReleased(id, now);
                m_active.remove(id);
                emit pointReleased(id, scene);
                m_grabByPoint.remove(id);
            } else {
                m_matcher.qtMoved(id, qtScreen(pt));
            }
        }
        break;
    }
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonRelease: {
        auto *me = static_cast<QMouseEvent *>(event);
        if (me->pointingDevice()->type() != QInputDevice::DeviceType::Mouse)
            break;
        // A mouse is no finger the daemon knows: only `pressed` of the areas follows it.
        if (event->type() == QEvent::MouseButtonPress)
            emit pointPressed(-1, toScene(me->globalPosition()));
        else
            emit pointReleased(-1, toScene(me->globalPosition()));
        break;
    }
    default:
        break;
    }
    return false;
}
