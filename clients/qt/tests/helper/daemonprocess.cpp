// SPDX-License-Identifier: MIT
#include "daemonprocess.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QDeadlineTimer>
#include <QtCore/QDir>
#include <QtCore/QFileInfo>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>

DaemonProcess::DaemonProcess(QObject *parent) : QObject(parent)
{
    connect(&m_process, &QProcess::stateChanged, this, &DaemonProcess::runningChanged);
    connect(&m_process, &QProcess::readyReadStandardError, this,
            [this] { m_log += m_process.readAllStandardError(); });
}

DaemonProcess::~DaemonProcess()
{
    stop();
}

QString DaemonProcess::socketPath()
{
    static QTemporaryDir dir(QDir::tempPath() + QStringLiteral("/pressured-qt-test-XXXXXX"));
    return dir.filePath(QStringLiteral("pressured.sock"));
}

QString DaemonProcess::capturesDir()
{
    return QStringLiteral(PRESSURED_QT_SOURCE_DIR "/tests/captures");
}

QString DaemonProcess::program()
{
    static const QString path = [] {
        QString dir = qEnvironmentVariable("PRESSURED_BIN_DIR");
        if (dir.isEmpty()) {
            QProcess swift;
            swift.setWorkingDirectory(QStringLiteral(PRESSURED_QT_SOURCE_DIR "/../.."));
            swift.start(QStringLiteral("swift"), { QStringLiteral("build"), QStringLiteral("--show-bin-path") });
            swift.waitForFinished(120000);
            dir = QString::fromLocal8Bit(swift.readAllStandardOutput()).trimmed();
        }
        return QDir(dir).filePath(QStringLiteral("pressured"));
    }();
    return path;
}

bool DaemonProcess::start(int timeoutMs)
{
    stop();
    QFile::remove(socketPath());
    m_log.clear();
    QString capture = m_capture;
    if (!QFileInfo(capture).isAbsolute())
        capture = QDir(capturesDir()).filePath(capture);
    QStringList args{ QStringLiteral("--socket"), socketPath(),
                      QStringLiteral("--config"), QDir(capturesDir()).filePath(QStringLiteral("pressured-test.conf")),
                      QStringLiteral("--replay"), capture,
                      QStringLiteral("--speed"), QString::number(m_speed) };
    args += m_arguments;
    m_process.start(program(), args);
    if (!m_process.waitForStarted(5000)) {
        qWarning("DaemonProcess: cannot run %s: %s", qPrintable(program()), qPrintable(m_process.errorString()));
        return false;
    }
    QDeadlineTimer deadline(timeoutMs);
    while (!QFileInfo::exists(socketPath())) {
        if (m_process.state() == QProcess::NotRunning || deadline.hasExpired()) {
            m_log += m_process.readAllStandardError();
            qWarning("DaemonProcess: pressured did not serve %s:\n%s", qPrintable(socketPath()), m_log.constData());
            stop();
            return false;
        }
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        QThread::msleep(10);
    }
    return true;
}

void DaemonProcess::stop()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(5000)) {
        m_process.kill();
        m_process.waitForFinished(2000);
    }
}

void DaemonProcess::kill()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.kill();
    m_process.waitForFinished(2000);
}
