// SPDX-License-Identifier: MIT
#pragma once

#include "arearouter.h"
#include "connection.h"

#include <QtCore/QHash>
#include <QtCore/QObject>
#include <QtCore/QPointer>
#include <QtCore/QVariantList>
#include <QtQml/qqmlregistration.h>

class QQmlEngine;
class QJSEngine;
class ForceTouchArea;
class TouchTracker;

/// The `Pressured` singleton: the one connection of this process to the pressured daemon.
///
/// It connects on first use (to `socketPath`, else $PRESSURED_SOCKET, else /run/pressured/pressured.sock),
/// reconnects whenever the daemon restarts, re-registers every ForceTouchArea's region then, and says in
/// `status` what it is doing. Without a daemon everything still works: force reads 0 and `forceAvailable`
/// false, and one line is logged.
class Pressured : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
    /// Whether the daemon's `hello` was read on the current connection.
    Q_PROPERTY(bool connected READ isConnected NOTIFY connectedChanged)
    /// The daemon's devices: maps with `id`, `name`, `node`, `kind`, `force` ("available", "learning" or
    /// "unavailable"), `available` (bool), `forceCapability` and `forceUnavailable` (the protocol's
    /// words; the latter empty while force is on), `why` (in words),
    /// `maximumPossibleForce`, `screen` ({width, height, rotation}) and `widthMm`/`heightMm` where known.
    Q_PROPERTY(QVariantList devices READ devices NOTIFY devicesChanged)
    /// Whether any device has force now (false while learning, off or disconnected).
    Q_PROPERTY(bool forceAvailable READ forceAvailable NOTIFY devicesChanged)
    /// The daemon's settings: `forceTouch`, `sensitivity`, `haptics` (empty while disconnected).
    Q_PROPERTY(QVariantMap settings READ settings NOTIFY settingsChanged)
    /// The daemon's version ("0.1.0"), empty while disconnected.
    Q_PROPERTY(QString version READ version NOTIFY connectedChanged)
    /// What the module is doing, in one or two sentences: connected or why not, and where Qt's touches
    /// and the daemon's do not line up (the window's offset learned from touches, unmatched touches).
    Q_PROPERTY(QString status READ status NOTIFY statusChanged)
    /// The socket to connect to; empty for $PRESSURED_SOCKET or the default. Setting it reconnects.
    Q_PROPERTY(QString socketPath READ socketPath WRITE setSocketPath NOTIFY socketPathChanged)
    /// How far apart (ms) Qt's press and the daemon's touch of one finger may begin (default 300).
    Q_PROPERTY(int matchTime READ matchTime WRITE setMatchTime NOTIFY matchChanged)
    /// How far apart (screen pixels) they may begin, once the window's offset is known (default 48).
    Q_PROPERTY(qreal matchRadius READ matchRadius WRITE setMatchRadius NOTIFY matchChanged)
    /// daemon screen pixels − Qt's screen pixels, as learned in the first window (0, 0 until learned):
    /// a delta from where Qt placed the window, not the window's place.
    Q_PROPERTY(QPointF windowOffset READ windowOffset NOTIFY statusChanged)

public:
    /// The process-wide instance (every QML engine shares it).
    static Pressured *instance();
    /// For QML_SINGLETON: returns instance(), owned by C++.
    static Pressured *create(QQmlEngine *, QJSEngine *);

    bool isConnected() const { return m_connected; }
    QVariantList devices() const { return m_devices; }
    bool forceAvailable() const;
    QVariantMap settings() const { return m_settings; }
    QString version() const { return m_version; }
    QString status() const { return m_status; }
    QString socketPath() const { return m_socketPath; }
    void setSocketPath(const QString &path);
    int matchTime() const { return m_matchTime; }
    void setMatchTime(int ms);
    qreal matchRadius() const { return m_matchRadius; }
    void setMatchRadius(qreal px);
    QPointF windowOffset() const;

    /// Tells the daemon the user chose @p action of @p app's quick actions (it goes to that app).
    Q_INVOKABLE bool chooseAction(const QString &app, const QString &action);
    /// Connects now, if not yet (areas do it themselves; for apps that only read `devices`).
    Q_INVOKABLE void start();

    // For ForceTouchArea.
    QString registerArea(ForceTouchArea *area);
    void unregisterArea(const QString &id);
    /// Sends @p spec unless it is what the daemon has; @p visible false removes the region.
    void updateRegion(const RegionSpec &spec, bool visible);
    /// The maximum possible force of the device (0: unknown/unavailable), for areas before a touch.
    double maximumPossibleForce() const;
    PressuredConnection *connection() { return &m_connection; }
    /// A window's tracker paired daemon contact @p key with its Qt point @p pointId pressed at @p pressScene.
    void contactPaired(int pointId, quint64 key, QPointF pressScene);

signals:
    void connectedChanged();
    void devicesChanged();
    void settingsChanged();
    void statusChanged();
    void socketPathChanged();
    void matchChanged();
    /// Every gesture the daemon sends this process, also those of touches outside every area: a map with
    /// the protocol's fields (`type`, `device`, `contact`, `screenX`, `screenY`, `force`, `region`...).
    void gesture(const QVariantMap &event);
    /// A daemon contact began (`device`, `contact`, `screenX`, `screenY`): for tests and diagnostics.
    void touchBegan(const QVariantMap &event);
    /// A daemon contact ended or was cancelled.
    void touchEnded(const QVariantMap &event);
    /// The user chose @p action from this app's quick actions (another client sent chooseAction).
    void action(const QString &app, const QString &action);

private:
    explicit Pressured(QObject *parent = nullptr);
    void connectNow();
    void onConnected(const QString &version, const QVariantList &devices, const QVariantMap &settings);
    void onDisconnected(const QString &why);
    void onPointEvent(const PointEvent &event);
    void onDevice(const QString &change, const QVariantMap &device);
    void onStatusReply(const QJsonObject &reply);
    void updateStatus();
    void resendRegions();
    static QVariantMap eventMap(const PointEvent &event);

    PressuredConnection m_connection;
    bool m_started = false;
    bool m_connected = false;
    bool m_loggedAbsence = false;
    QString m_socketPath;
    QString m_version;
    QString m_connectionStatus;
    QString m_status;
    QVariantList m_devices;
    QHash<qint64, QString> m_why;
    QVariantMap m_settings;
    int m_matchTime = 300;
    qreal m_matchRadius = 48;

    int m_nextArea = 1;
    AreaRouter m_router;                          ///< the areas, and which one each contact is for
    QHash<QString, RegionSpec> m_sent;            ///< what the daemon has, by region id
    QHash<QString, RegionSpec> m_wanted;          ///< what the areas want registered
};
