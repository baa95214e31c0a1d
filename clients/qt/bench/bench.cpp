// SPDX-License-Identifier: MIT
// What a ForceTouchArea scene costs a frame: 10 fingers at 250 Hz (tools/gen-capture.py) replayed in real
// time by `pressured --replay`, this process subscribed to touches (as the module always is) with a grid
// of 12 areas on a 1024×768 window (offscreen). Prints CPU time (user + system, getrusage) per daemon
// frame and per touch event, against the same scene idle for as long. Printed, not asserted.
//   pressured-qt-bench CAPTURE.evemu [SECONDS [module-only]]     (run-bench makes the capture)
#include <QtCore/QCommandLineParser>
#include <QtCore/QElapsedTimer>
#include <QtCore/QEventLoop>
#include <QtCore/QFileInfo>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtCore/QThread>
#include <QtCore/QTimer>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlComponent>
#include <QtQml/QQmlEngine>
#include <QtQuick/QQuickItem>
#include <QtQuick/QQuickWindow>

#include <sys/resource.h>

#include <cstdio>

static double cpuSeconds()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static const char *kScene = R"(
import QtQuick
import QtQuick.Window
import Pressured
Window {
    width: 1024; height: 768; visible: true
    property int touches: 0
    property bool bindForce: true
    property int frames: 0
    Connections { target: Pressured; function onTouchBegan() { } }
    Grid {
        columns: 4; spacing: 8; x: 8; y: 8
        Repeater {
            model: 12
            Rectangle {
                width: 248; height: 244; color: bindForce ? Qt.rgba(0.2, 0.3, 0.5 + area.force / 8, 1) : "steelblue"
                ForceTouchArea { id: area; onForceChanged: touches++ }
            }
        }
    }
    onAfterAnimating: frames++
}
)";

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 2) {
        fprintf(stderr, "usage: pressured-qt-bench CAPTURE.evemu [SECONDS]\n");
        return 2;
    }
    const QString capture = args.at(1);
    const int seconds = args.size() > 2 ? args.at(2).toInt() : 10;
    const QString bin = qEnvironmentVariable("PRESSURED_BIN_DIR");
    QTemporaryDir dir;
    const QString socket = dir.filePath(QStringLiteral("pressured.sock"));

    QQmlEngine engine;
    engine.addImportPath(QStringLiteral(PRESSURED_QML_IMPORT_DIR));
    QQmlComponent component(&engine);
    component.setData(kScene, QUrl(QStringLiteral("bench.qml")));
    const bool bindForce = !(args.size() > 3 && args.at(3) == QLatin1String("module-only"));
    QObject *root = component.beginCreate(engine.rootContext());
    if (root)
        root->setProperty("bindForce", bindForce);
    component.completeCreate();
    if (!root) {
        fprintf(stderr, "%s\n", qPrintable(component.errorString()));
        return 1;
    }
    auto run = [&](int ms) {
        QEventLoop loop;
        QTimer::singleShot(ms, &loop, &QEventLoop::quit);
        loop.exec();
    };
    QObject *pressured = engine.singletonInstance<QObject *>(qmlTypeId("Pressured", 1, 0, "Pressured"));
    pressured->setProperty("socketPath", socket);

    // Idle: the scene, connected to nothing, for as long as the replay will take.
    run(500);
    double c0 = cpuSeconds();
    run(seconds * 1000);
    const double idle = cpuSeconds() - c0;
    const int idleFrames = root->property("frames").toInt();

    QProcess daemon;
    daemon.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    daemon.start(bin + QStringLiteral("/pressured"),
                 { QStringLiteral("--socket"), socket, QStringLiteral("--config"),
                   QStringLiteral(PRESSURED_QT_SOURCE_DIR "/bench/bench.conf"), QStringLiteral("--replay"),
                   capture, QStringLiteral("--speed"), QStringLiteral("1"), QStringLiteral("--exit-when-done") });
    while (!QFileInfo::exists(socket) && daemon.state() != QProcess::NotRunning)
        QThread::msleep(5);
    root->setProperty("touches", 0);
    root->setProperty("frames", 0);
    c0 = cpuSeconds();
    QElapsedTimer wall;
    wall.start();
    {
        QEventLoop loop;
        QObject::connect(&daemon, &QProcess::finished, &loop, &QEventLoop::quit);
        if (daemon.state() != QProcess::NotRunning)
            loop.exec();
    }
    const double busy = cpuSeconds() - c0;
    const double elapsed = wall.elapsed() / 1000.0;
    const int forceChanges = root->property("touches").toInt();
    const int renders = root->property("frames").toInt();
    const double daemonFrames = 250.0 * seconds;
    printf("pressured-qt-bench: 10 fingers at 250 Hz for %d s (%.0f daemon frames), 12 ForceTouchAreas, %s\n",
           seconds, daemonFrames, bindForce ? "tiles redrawn with the force" : "module only (nothing redrawn)");
    printf("  replay: %.2f s wall, %.3f s CPU (%.1f%% of a core), %d forceChanged, %d rendered frames\n", elapsed,
           busy, 100 * busy / elapsed, forceChanges, renders);
    printf("  idle:   %.3f s CPU over %d s (%d rendered frames)\n", idle, seconds, idleFrames);
    printf("  => %.1f us CPU per daemon frame (%.1f us above idle), %.2f us per touch event\n",
           1e6 * busy / daemonFrames, 1e6 * (busy - idle * elapsed / seconds) / daemonFrames,
           1e6 * busy / (daemonFrames * 10));
    delete root;
    return 0;
}
