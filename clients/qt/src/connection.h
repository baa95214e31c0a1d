// SPDX-License-Identifier: MIT
#pragma once

#include "pointevent.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonObject>
#include <QtCore/QObject>
#include <QtCore/QRectF>
#include <QtCore/QTimer>
#include <QtCore/QVariantMap>

struct pressured;
struct pressured_event;
struct pressured_device;
class QSocketNotifier;

/// A region as this module registers it with the daemon.
struct RegionSpec
{
    QString id;
    QRectF rect;        ///< screen pixels
    int z = 0;
    bool previews = true;
    bool quickActions = false;
    bool longPress = true;
    QString app;
    QVariantList items; ///< maps with id, title, subtitle, icon
    bool haptics = true;

    bool operator==(const RegionSpec &o) const
    {
        return id == o.id && rect == o.rect && z == o.z && previews == o.previews
            && quickActions == o.quickActions && longPress == o.longPress && app == o.app
            && items == o.items && haptics == o.haptics;
    }
    bool operator!=(const RegionSpec &o) const { return !(*this == o); }
};

/// libpressured's context on Qt's event loop: a QSocketNotifier on pressured_get_fd(), and a QTimer armed
/// from pressured_get_timeout() after every dispatch (the fd alone would do; the timer keeps a reconnect
/// attempt on time should the notifier be disabled). Events come out as Qt signals. Internal.
class PressuredConnection : public QObject
{
    Q_OBJECT
public:
    explicit PressuredConnection(QObject *parent = nullptr);
    ~PressuredConnection() override;

    /// Connects to @p socketPath (empty: $PRESSURED_SOCKET, else the default socket) and keeps
    /// reconnecting with libpressured's back-off (@p minMs doubling to @p maxMs). False when this first
    /// attempt failed (lastError() says why; the retries go on).
    bool start(const QString &socketPath, int minMs = 100, int maxMs = 2000);
    /// Disconnects and stops reconnecting.
    void stop();
    bool isConnected() const;
    /// The path connected to, or to be reconnected to.
    QString socketPath() const;
    /// Whether the library context could be created at all.
    bool isValid() const { return m_p != nullptr; }

    bool setRegion(const RegionSpec &region);
    bool removeRegion(const QString &id);
    bool chooseAction(const QString &app, const QString &action);
    bool requestStatus();

    /// The last error or disconnection reason the library gave, in words.
    QString lastError() const;
    /// The monotonic clock events' arrivalMs are on.
    static qint64 nowMs();

signals:
    void connected(const QString &version, const QVariantList &devices, const QVariantMap &settings);
    void disconnected(const QString &why);
    void pointEvent(const PointEvent &event);
    /// @p change is "added", "removed" or "changed".
    void deviceEvent(const QString &change, const QVariantMap &device);
    void settingsChanged(const QVariantMap &settings);
    void actionChosen(const QString &app, const QString &action);
    void statusReceived(const QJsonObject &reply);
    void errorReceived(const QString &code, const QString &message, bool fatal);

private:
    void dispatch();
    void drain();
    void handle(pressured_event *ev);
    void handlePoint(pressured_event *ev, PointEvent::Kind kind);
    void armTimer();
    static QVariantMap deviceMap(pressured_device *device);
    static QVariantMap settingsMap(pressured_event *ev);

    pressured *m_p = nullptr;
    QSocketNotifier *m_notifier = nullptr;
    QTimer m_timer;
    qint64 m_statusRequest = 0;
};
