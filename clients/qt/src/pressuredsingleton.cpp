// SPDX-License-Identifier: MIT
#include "pressuredsingleton.h"

#include "forcetoucharea.h"
#include "touchtracker.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QJsonArray>
#include <QtCore/QLoggingCategory>
#include <QtQml/QQmlEngine>

Q_DECLARE_LOGGING_CATEGORY(lcPressured)

static QPointer<Pressured> s_instance;

Pressured *Pressured::instance()
{
    if (!s_instance)
        s_instance = new Pressured(QCoreApplication::instance());
    return s_instance;
}

Pressured *Pressured::create(QQmlEngine *, QJSEngine *)
{
    Pressured *p = instance();
    QQmlEngine::setObjectOwnership(p, QQmlEngine::CppOwnership);
    return p;
}

Pressured::Pressured(QObject *parent) : QObject(parent)
{
    connect(&m_connection, &PressuredConnection::connected, this, &Pressured::onConnected);
    connect(&m_connection, &PressuredConnection::disconnected, this, &Pressured::onDisconnected);
    connect(&m_connection, &PressuredConnection::pointEvent, this, &Pressured::onPointEvent);
    connect(&m_connection, &PressuredConnection::deviceEvent, this, &Pressured::onDevice);
    connect(&m_connection, &PressuredConnection::settingsChanged, this, [this](const QVariantMap &s) {
        m_settings = s;
        emit settingsChanged();
    });
    connect(&m_connection, &PressuredConnection::actionChosen, this, &Pressured::action);
    connect(&m_connection, &PressuredConnection::statusReceived, this, &Pressured::onStatusReply);
    connect(&m_connection, &PressuredConnection::errorReceived, this,
            [](const QString &code, const QString &message, bool fatal) {
                qCWarning(lcPressured, "%s%s: %s", qPrintable(code), fatal ? " (fatal)" : "",
                          qPrintable(message));
            });
    m_connectionStatus = QStringLiteral("not connected");
    updateStatus();
}

void Pressured::start()
{
    if (m_started)
        return;
    m_started = true;
    if (!m_connection.isValid()) {
        m_connectionStatus = QStringLiteral("libpressured could not start: force touch is off");
        updateStatus();
        return;
    }
    connectNow();
}

void Pressured::connectNow()
{
    if (m_connected)
        onDisconnected(QStringLiteral("socket path changed"));
    m_connectionStatus = QStringLiteral("connecting to %1").arg(m_socketPath.isEmpty() ? QStringLiteral("the default socket") : m_socketPath);
    // A daemon that is not there yet is no error: libpressured retries with its back-off.
    if (!m_connection.start(m_socketPath, 100, 1000))
        onDisconnected(m_connection.lastError());
    updateStatus();
}

void Pressured::setSocketPath(const QString &path)
{
    if (path == m_socketPath)
        return;
    m_socketPath = path;
    emit socketPathChanged();
    if (m_started)
        connectNow();
}

void Pressured::setMatchTime(int ms)
{
    if (ms == m_matchTime)
        return;
    m_matchTime = ms;
    m_router.setMatchTime(ms);
    emit matchChanged();
}

void Pressured::setMatchRadius(qreal px)
{
    if (px == m_matchRadius)
        return;
    m_matchRadius = px;
    emit matchChanged();
}

QPointF Pressured::windowOffset() const
{
    const auto &all = TouchTracker::all();
    return all.isEmpty() ? QPointF() : all.first()->matcher().offset();
}

bool Pressured::forceAvailable() const
{
    for (const QVariant &d : m_devices)
        if (d.toMap().value(QStringLiteral("available")).toBool())
            return true;
    return false;
}

double Pressured::maximumPossibleForce() const
{
    double top = 0;
    for (const QVariant &d : m_devices)
        top = qMax(top, d.toMap().value(QStringLiteral("maximumPossibleForce")).toDouble());
    return top;
}

bool Pressured::chooseAction(const QString &app, const QString &action)
{
    return m_connection.chooseAction(app, action);
}

static QString whyInWords(const QString &code)
{
    if (code == QLatin1String("learning"))
        return QStringLiteral("learning the average touch");
    if (code == QLatin1String("off"))
        return QStringLiteral("force touch is turned off");
    if (code == QLatin1String("no-pressure"))
        return QStringLiteral("the panel has no pressure axis");
    if (code == QLatin1String("too-few-levels"))
        return QStringLiteral("the panel has too few pressure levels");
    if (code == QLatin1String("flat"))
        return QStringLiteral("the panel's pressure does not vary within a touch");
    if (code == QLatin1String("pressure-is-size"))
        return QStringLiteral("the panel's pressure is only the size of the contact");
    if (code == QLatin1String("no-headroom"))
        return QStringLiteral("the panel has no room above an ordinary touch for peek and pop");
    return code;
}

void Pressured::onConnected(const QString &version, const QVariantList &devices, const QVariantMap &settings)
{
    m_connected = true;
    m_loggedAbsence = false;
    m_version = version;
    m_devices.clear();
    for (QVariant d : devices) {
        QVariantMap m = d.toMap();
        m[QStringLiteral("why")] = whyInWords(m.value(QStringLiteral("forceUnavailable")).toString());
        m_devices.append(m);
    }
    m_settings = settings;
    m_sent.clear();
    qCInfo(lcPressured, "connected to %s (pressured %s)", qPrintable(m_connection.socketPath()),
           qPrintable(version));
    m_connectionStatus = QStringLiteral("connected to %1 (pressured %2)").arg(m_connection.socketPath(), version);
    m_connection.requestStatus(); // the reasons in words (`why`)
    resendRegions();
    updateStatus();
    emit connectedChanged();
    emit devicesChanged();
    emit settingsChanged();
    updateStatus();
}

void Pressured::onDisconnected(const QString &why)
{
    const bool was = m_connected;
    m_connected = false;
    m_version.clear();
    m_sent.clear();
    m_router.clear();
    for (TouchTracker *t : TouchTracker::all())
        t->daemonGone();
    for (const auto &area : std::as_const(m_router.areas()))
        if (area)
            area->daemonGone();
    if (!m_loggedAbsence) {
        // One line, however long the daemon stays away.
        m_loggedAbsence = true;
        qCWarning(lcPressured, "%s at %s: %s; force touch is off until it comes (areas work as "
                               "plain areas)",
                  was ? "connection lost" : "no daemon", qPrintable(m_connection.socketPath()),
                  qPrintable(why.isEmpty() ? m_connection.lastError() : why));
    }
    m_connectionStatus = QStringLiteral("not connected to %1 (%2); retrying")
                             .arg(m_connection.socketPath(), why.isEmpty() ? m_connection.lastError() : why);
    updateStatus();
    if (was) {
        m_devices.clear();
        m_settings.clear();
        emit connectedChanged();
        emit devicesChanged();
        emit settingsChanged();
    }
    updateStatus();
}

void Pressured::onDevice(const QString &change, const QVariantMap &device)
{
    const qint64 id = device.value(QStringLiteral("id")).toLongLong();
    QVariantMap m = device;
    m[QStringLiteral("why")] = m_why.value(id, whyInWords(m.value(QStringLiteral("forceUnavailable")).toString()));
    for (int i = 0; i < m_devices.size(); ++i) {
        if (m_devices[i].toMap().value(QStringLiteral("id")).toLongLong() == id) {
            if (change == QLatin1String("removed"))
                m_devices.removeAt(i);
            else
                m_devices[i] = m;
            emit devicesChanged();
            m_connection.requestStatus();
            return;
        }
    }
    if (change != QLatin1String("removed")) {
        m_devices.append(m);
        emit devicesChanged();
        m_connection.requestStatus();
    }
}

void Pressured::onStatusReply(const QJsonObject &reply)
{
    const QJsonArray force = reply.value(QStringLiteral("force")).toArray();
    bool changed = false;
    for (const QJsonValue &f : force) {
        const qint64 id = f[QStringLiteral("device")].toInteger();
        const QString why = f[QStringLiteral("why")].toString();
        if (why.isEmpty())
            continue;
        m_why.insert(id, why);
        for (QVariant &d : m_devices) {
            QVariantMap m = d.toMap();
            if (m.value(QStringLiteral("id")).toLongLong() == id && m.value(QStringLiteral("why")) != why) {
                m[QStringLiteral("why")] = why;
                d = m;
                changed = true;
            }
        }
    }
    if (changed)
        emit devicesChanged();
}

void Pressured::updateStatus()
{
    QString s = m_connectionStatus;
    for (TouchTracker *t : TouchTracker::all()) {
        const QString d = t->matcher().disagreement();
        if (!d.isEmpty())
            s += QStringLiteral("; ") + d;
    }
    if (s != m_status) {
        m_status = s;
        emit statusChanged();
    }
}

QString Pressured::registerArea(ForceTouchArea *area)
{
    // Next turn of the event loop: QML sets socketPath in Component.onCompleted, after the areas exist.
    if (!m_started)
        QMetaObject::invokeMethod(this, &Pressured::start, Qt::QueuedConnection);
    const QString id = QStringLiteral("qt:%1").arg(m_nextArea++);
    m_router.addArea(id, area);
    return id;
}

void Pressured::unregisterArea(const QString &id)
{
    m_router.removeArea(id);
    m_wanted.remove(id);
    if (m_sent.remove(id))
        m_connection.removeRegion(id);
}

void Pressured::updateRegion(const RegionSpec &spec, bool visible)
{
    if (!visible) {
        m_wanted.remove(spec.id);
        if (m_sent.remove(spec.id))
            m_connection.removeRegion(spec.id);
        return;
    }
    m_wanted.insert(spec.id, spec);
    auto it = m_sent.constFind(spec.id);
    if (it != m_sent.constEnd() && *it == spec)
        return;
    if (m_connection.setRegion(spec))
        m_sent.insert(spec.id, spec);
    updateStatus();
}

void Pressured::resendRegions()
{
    for (const RegionSpec &spec : std::as_const(m_wanted))
        if (m_connection.setRegion(spec))
            m_sent.insert(spec.id, spec);
}

QVariantMap Pressured::eventMap(const PointEvent &e)
{
    QVariantMap m{ { QStringLiteral("type"), QString::fromLatin1(e.typeName()) },
                   { QStringLiteral("time"), e.time },
                   { QStringLiteral("device"), e.device },
                   { QStringLiteral("contact"), e.contact },
                   { QStringLiteral("screenX"), e.screen.x() },
                   { QStringLiteral("screenY"), e.screen.y() },
                   { QStringLiteral("force"), e.force },
                   { QStringLiteral("maximumPossibleForce"), e.maximumPossibleForce } };
    if (!e.region.isEmpty())
        m[QStringLiteral("region")] = e.region;
    if (!e.app.isEmpty())
        m[QStringLiteral("app")] = e.app;
    if (!e.items.isEmpty())
        m[QStringLiteral("items")] = e.items;
    return m;
}

void Pressured::contactPaired(int, quint64 key, QPointF pressScene)
{
    if (auto *tracker = qobject_cast<TouchTracker *>(sender()))
        m_router.paired(tracker, key, pressScene);
}

void Pressured::onPointEvent(const PointEvent &e)
{
    if (!e.isGesture()) {
        for (TouchTracker *t : TouchTracker::all())
            t->contactEvent(e);
        if (e.phase == PointEvent::Began && isSignalConnected(QMetaMethod::fromSignal(&Pressured::touchBegan)))
            emit touchBegan(eventMap(e));
    } else if (isSignalConnected(QMetaMethod::fromSignal(&Pressured::gesture))) {
        emit gesture(eventMap(e));
    }
    m_router.route(e);
    if (e.isEnd()) {
        if (isSignalConnected(QMetaMethod::fromSignal(&Pressured::touchEnded)))
            emit touchEnded(eventMap(e));
        updateStatus();
    }
}
