// SPDX-License-Identifier: MIT
#include "connection.h"

#include <pressured.h>

#include <QtCore/QJsonDocument>
#include <QtCore/QLoggingCategory>
#include <QtCore/QSocketNotifier>

#include <cstdio>

Q_LOGGING_CATEGORY(lcPressured, "pressured")

static QString str(const char *s)
{
    return s ? QString::fromUtf8(s) : QString();
}

static void logHandler(pressured *, enum pressured_log_priority priority, const char *format, va_list args)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, format, args);
    QByteArray line(buf);
    while (line.endsWith('\n'))
        line.chop(1);
    if (priority >= PRESSURED_LOG_PRIORITY_ERROR)
        qCWarning(lcPressured, "libpressured: %s", line.constData());
    else
        qCDebug(lcPressured, "libpressured: %s", line.constData());
}

qint64 PressuredConnection::nowMs()
{
    static QElapsedTimer clock = [] { QElapsedTimer t; t.start(); return t; }();
    return clock.elapsed();
}

PressuredConnection::PressuredConnection(QObject *parent) : QObject(parent)
{
    m_p = pressured_new(this);
    if (!m_p)
        return;
    pressured_log_set_handler(m_p, logHandler);
    m_notifier = new QSocketNotifier(pressured_get_fd(m_p), QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &PressuredConnection::dispatch);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &PressuredConnection::dispatch);
}

PressuredConnection::~PressuredConnection()
{
    if (m_p)
        pressured_unref(m_p);
}

bool PressuredConnection::start(const QString &socketPath, int minMs, int maxMs)
{
    if (!m_p)
        return false;
    pressured_disconnect(m_p);
    pressured_set_reconnect(m_p, minMs, maxMs);
    const QByteArray path = socketPath.toLocal8Bit();
    const int rc = pressured_connect(m_p, path.isEmpty() ? nullptr : path.constData());
    drain();
    armTimer();
    return rc >= 0;
}

void PressuredConnection::stop()
{
    if (!m_p)
        return;
    pressured_disconnect(m_p);
    m_timer.stop();
    drain();
}

bool PressuredConnection::isConnected() const
{
    return m_p && pressured_is_connected(m_p);
}

QString PressuredConnection::socketPath() const
{
    return m_p ? str(pressured_get_socket_path(m_p)) : QString();
}

QString PressuredConnection::lastError() const
{
    return m_p ? str(pressured_get_error_message(m_p)) : QStringLiteral("libpressured: out of memory");
}

void PressuredConnection::dispatch()
{
    pressured_dispatch(m_p);
    drain();
    armTimer();
}

void PressuredConnection::armTimer()
{
    const int ms = pressured_get_timeout(m_p);
    if (ms < 0)
        m_timer.stop();
    else
        m_timer.start(ms);
}

void PressuredConnection::drain()
{
    while (pressured_event *ev = pressured_get_event(m_p)) {
        handle(ev);
        pressured_event_unref(ev);
    }
}

bool PressuredConnection::setRegion(const RegionSpec &r)
{
    if (!isConnected())
        return false;
    pressured_items *items = nullptr;
    if (!r.items.isEmpty()) {
        items = pressured_items_new();
        for (const QVariant &v : r.items) {
            const QVariantMap m = v.toMap();
            const QByteArray id = m.value(QStringLiteral("id")).toString().toUtf8();
            const QByteArray title = m.value(QStringLiteral("title")).toString().toUtf8();
            const QByteArray subtitle = m.value(QStringLiteral("subtitle")).toString().toUtf8();
            const QByteArray icon = m.value(QStringLiteral("icon")).toString().toUtf8();
            if (pressured_items_add(items, id.constData(), title.constData(),
                                    subtitle.isEmpty() ? nullptr : subtitle.constData(),
                                    icon.isEmpty() ? nullptr : icon.constData()) < 0)
                qCWarning(lcPressured) << "quick action left out (needs an id and a title):" << m;
        }
    }
    uint32_t wants = (r.previews ? PRESSURED_WANTS_PREVIEWS : 0)
        | (r.quickActions ? PRESSURED_WANTS_QUICK_ACTIONS : 0) | (r.longPress ? PRESSURED_WANTS_LONG_PRESS : 0);
    // A region that wants nothing still must say so: 0 would mean the daemon's default.
    if (!wants)
        wants = PRESSURED_WANTS_LONG_PRESS;
    const QByteArray id = r.id.toUtf8(), app = r.app.toUtf8();
    const int64_t rc = pressured_set_region(m_p, id.constData(), r.rect.x(), r.rect.y(), r.rect.width(),
                                            r.rect.height(), r.z, wants,
                                            app.isEmpty() ? nullptr : app.constData(), items, r.haptics ? -1 : 0);
    pressured_items_free(items);
    drain();
    return rc > 0;
}

bool PressuredConnection::removeRegion(const QString &id)
{
    if (!isConnected())
        return false;
    const int64_t rc = pressured_remove_region(m_p, id.toUtf8().constData());
    drain();
    return rc > 0;
}

bool PressuredConnection::chooseAction(const QString &app, const QString &action)
{
    if (!isConnected())
        return false;
    const int64_t rc = pressured_choose_action(m_p, app.toUtf8().constData(), action.toUtf8().constData());
    drain();
    return rc > 0;
}

bool PressuredConnection::requestStatus()
{
    if (!isConnected())
        return false;
    m_statusRequest = pressured_request_status(m_p);
    drain();
    return m_statusRequest > 0;
}

QVariantMap PressuredConnection::deviceMap(pressured_device *d)
{
    QVariantMap m;
    m[QStringLiteral("id")] = qint64(pressured_device_get_id(d));
    m[QStringLiteral("name")] = str(pressured_device_get_name(d));
    m[QStringLiteral("node")] = str(pressured_device_get_node(d));
    m[QStringLiteral("kind")] = str(pressured_device_get_kind_name(d));
    const QString unavailable = str(pressured_device_get_force_unavailable(d));
    const bool has = pressured_device_has_force(d);
    m[QStringLiteral("forceCapability")] = str(pressured_device_get_force_capability(d));
    m[QStringLiteral("forceUnavailable")] = unavailable;
    // What apps show: available, learning (becomes available by itself) or unavailable.
    m[QStringLiteral("force")] = has ? QStringLiteral("available")
        : unavailable == QLatin1String("learning") ? QStringLiteral("learning") : QStringLiteral("unavailable");
    m[QStringLiteral("available")] = has;
    m[QStringLiteral("maximumPossibleForce")] = pressured_device_get_maximum_possible_force(d);
    double w = 0, h = 0;
    if (pressured_device_get_size_mm(d, &w, &h)) {
        m[QStringLiteral("widthMm")] = w;
        m[QStringLiteral("heightMm")] = h;
    }
    double sw = 0, sh = 0;
    int rotation = 0;
    pressured_device_get_screen(d, &sw, &sh, &rotation, nullptr);
    m[QStringLiteral("screen")] = QVariantMap{ { QStringLiteral("width"), sw }, { QStringLiteral("height"), sh },
                                               { QStringLiteral("rotation"), rotation } };
    return m;
}

QVariantMap PressuredConnection::settingsMap(pressured_event *ev)
{
    return QVariantMap{
        { QStringLiteral("forceTouch"), pressured_event_get_settings_force_touch(ev) },
        { QStringLiteral("sensitivity"), str(pressured_event_get_settings_sensitivity(ev)) },
        { QStringLiteral("haptics"), pressured_event_get_settings_haptics(ev) },
    };
}

void PressuredConnection::handle(pressured_event *ev)
{
    // The ends libpressured makes up when the connection ends (a dismiss for an open peek, a cancelled
    // touch, a failed request) are the module's to make: Pressured::onDisconnected ends what each area
    // has open, once, whichever way the connection went.
    if (pressured_event_is_synthesized(ev))
        return;
    const int type = pressured_event_get_type(ev);
    switch (type) {
    case PRESSURED_EVENT_CONNECTED: {
        QVariantList devices;
        for (size_t i = 0, n = pressured_event_get_device_count(ev); i < n; ++i)
            devices.append(deviceMap(pressured_event_get_device(ev, i)));
        // Regions first (the receivers register them), then the subscription: a replay starts once a
        // client subscribed, and its first touch must find the regions in place.
        emit connected(str(pressured_event_get_version(ev)), devices, settingsMap(ev));
        pressured_subscribe(m_p, PRESSURED_SUBSCRIBE_GESTURES | PRESSURED_SUBSCRIBE_TOUCHES | PRESSURED_SUBSCRIBE_DEVICES,
                            nullptr, 0, nullptr);
        break;
    }
    case PRESSURED_EVENT_DISCONNECTED:
        emit disconnected(str(pressured_event_get_message(ev)));
        break;
    case PRESSURED_EVENT_DEVICE: {
        pressured_device *d = pressured_event_get_device(ev, 0);
        if (!d)
            break;
        const int change = pressured_event_device_get_change(ev);
        const QString name = change == PRESSURED_DEVICE_ADDED ? QStringLiteral("added")
            : change == PRESSURED_DEVICE_REMOVED              ? QStringLiteral("removed")
                                                               : QStringLiteral("changed");
        emit deviceEvent(name, deviceMap(d));
        break;
    }
    case PRESSURED_EVENT_SETTINGS:
        emit settingsChanged(settingsMap(ev));
        break;
    case PRESSURED_EVENT_ACTION:
        emit actionChosen(str(pressured_event_get_app(ev)), str(pressured_event_get_action(ev)));
        break;
    case PRESSURED_EVENT_REPLY:
        if (pressured_event_reply_get_request(ev) == PRESSURED_REQUEST_STATUS) {
            const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(pressured_event_get_json(ev)));
            emit statusReceived(doc.object());
        }
        break;
    case PRESSURED_EVENT_ERROR:
        emit errorReceived(str(pressured_event_error_get_code(ev)), str(pressured_event_get_message(ev)),
                           pressured_event_error_is_fatal(ev));
        break;
    default:
        // Gestures and touches; the list of types grows: ignore the others (never take one for a touch).
        if (const std::optional<PointEvent::Kind> kind = PointEvent::kindOf(type))
            handlePoint(ev, *kind);
        break;
    }
}

void PressuredConnection::handlePoint(pressured_event *ev, PointEvent::Kind kind)
{
    PointEvent e;
    e.kind = kind;
    e.arrivalMs = nowMs();
    e.time = pressured_event_get_time(ev);
    e.device = pressured_event_get_device_id(ev);
    e.contact = pressured_event_get_contact(ev);
    e.screen = QPointF(pressured_event_get_screen_x(ev), pressured_event_get_screen_y(ev));
    e.force = pressured_event_get_force(ev);
    e.maximumPossibleForce = pressured_event_get_maximum_possible_force(ev);
    e.region = str(pressured_event_get_region(ev));
    if (kind == PointEvent::Touch) {
        switch (pressured_event_touch_get_phase(ev)) {
        case PRESSURED_TOUCH_BEGAN: e.phase = PointEvent::Began; break;
        case PRESSURED_TOUCH_MOVED: e.phase = PointEvent::Moved; break;
        case PRESSURED_TOUCH_ENDED: e.phase = PointEvent::Ended; break;
        case PRESSURED_TOUCH_CANCELLED: e.phase = PointEvent::Cancelled; break;
        default: return;
        }
        double progress = 0;
        if (pressured_event_touch_get_progress(ev, &progress))
            e.progress = progress;
    } else {
        e.app = str(pressured_event_get_app(ev));
        for (size_t i = 0, n = pressured_event_get_item_count(ev); i < n; ++i) {
            QVariantMap item{ { QStringLiteral("id"), str(pressured_event_get_item_id(ev, i)) },
                              { QStringLiteral("title"), str(pressured_event_get_item_title(ev, i)) } };
            if (const char *s = pressured_event_get_item_subtitle(ev, i))
                item[QStringLiteral("subtitle")] = str(s);
            if (const char *s = pressured_event_get_item_icon(ev, i))
                item[QStringLiteral("icon")] = str(s);
            e.items.append(item);
        }
    }
    emit pointEvent(e);
}
