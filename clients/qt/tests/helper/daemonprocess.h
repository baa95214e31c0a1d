// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QObject>
#include <QtCore/QProcess>
#include <QtQml/qqmlregistration.h>

/// Runs `pressured --replay CAPTURE` for a QML test (import PressuredTest): on its own socket in a
/// temporary directory (the same path for every instance of the process, so the Pressured singleton
/// reconnects to it), with the tests' configuration, waiting until it serves. The daemon comes from
/// $PRESSURED_BIN_DIR, else from `swift build --show-bin-path` in the checkout.
class DaemonProcess : public QObject
{
    Q_OBJECT
    QML_ELEMENT
    /// The capture to replay: a path, or a file name in tests/captures.
    Q_PROPERTY(QString capture READ capture WRITE setCapture NOTIFY changed)
    /// Extra arguments (default none).
    Q_PROPERTY(QStringList arguments READ arguments WRITE setArguments NOTIFY changed)
    /// The replay's pace (default 1, real time).
    Q_PROPERTY(qreal speed READ speed WRITE setSpeed NOTIFY changed)
    /// The socket it serves.
    Q_PROPERTY(QString socketPath READ socketPath CONSTANT)
    /// tests/captures in the source tree.
    Q_PROPERTY(QString capturesDir READ capturesDir CONSTANT)
    /// The pressured binary.
    Q_PROPERTY(QString program READ program CONSTANT)
    Q_PROPERTY(bool running READ isRunning NOTIFY runningChanged)
    /// What it wrote on stderr so far.
    Q_PROPERTY(QString log READ log)

public:
    explicit DaemonProcess(QObject *parent = nullptr);
    ~DaemonProcess() override;

    QString capture() const { return m_capture; }
    void setCapture(const QString &c) { m_capture = c; emit changed(); }
    QStringList arguments() const { return m_arguments; }
    void setArguments(const QStringList &a) { m_arguments = a; emit changed(); }
    qreal speed() const { return m_speed; }
    void setSpeed(qreal s) { m_speed = s; emit changed(); }
    static QString socketPath();
    static QString capturesDir();
    static QString program();
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    QString log() const { return QString::fromLocal8Bit(m_log); }

    /// Starts it and waits (up to @p timeoutMs) until its socket exists; false (and a warning with its
    /// log) when it exits first or takes too long.
    Q_INVOKABLE bool start(int timeoutMs = 10000);
    /// SIGTERM (the daemon says `bye`), then waits for it.
    Q_INVOKABLE void stop();
    /// SIGKILL: gone without a word, its socket file left behind.
    Q_INVOKABLE void kill();

signals:
    void changed();
    void runningChanged();

private:
    QProcess m_process;
    QString m_capture;
    QStringList m_arguments;
    qreal m_speed = 1;
    QByteArray m_log;
};
