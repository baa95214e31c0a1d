// SPDX-License-Identifier: MIT
// The kiosk example: a grid of tiles that preview on peek, open on pop and show quick actions on an icon.
//   pressured-kiosk [--socket PATH] [--screenshot FILE] [--quit-when-disconnected]
// --screenshot saves a picture of the first preview (grabToImage) to FILE.
#include <QtCore/QCommandLineParser>
#include <QtGui/QGuiApplication>
#include <QtQml/QQmlApplicationEngine>
#include <QtQml/QQmlContext>
#include <QtQuick/QQuickWindow>

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("socket"), QStringLiteral("pressured's socket"), QStringLiteral("PATH") });
    parser.addOption({ QStringLiteral("screenshot"), QStringLiteral("save the first preview to FILE"), QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("quit-when-disconnected"), QStringLiteral("quit when the daemon goes") });
    parser.process(app);

    QQmlApplicationEngine engine;
    engine.addImportPath(QStringLiteral(PRESSURED_QML_IMPORT_DIR));
    engine.rootContext()->setContextProperty(QStringLiteral("socketPath"), parser.value(QStringLiteral("socket")));
    engine.rootContext()->setContextProperty(QStringLiteral("screenshotFile"), parser.value(QStringLiteral("screenshot")));
    engine.rootContext()->setContextProperty(QStringLiteral("quitWhenDisconnected"),
                                             parser.isSet(QStringLiteral("quit-when-disconnected")));
    QObject::connect(&engine, &QQmlApplicationEngine::objectCreationFailed, &app, [] { QCoreApplication::exit(1); },
                     Qt::QueuedConnection);
    engine.load(QUrl(QStringLiteral("qrc:/Kiosk/Main.qml")));
    return app.exec();
}
