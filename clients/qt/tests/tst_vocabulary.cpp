// SPDX-License-Identifier: MIT
// The module against docs/protocol.md's table of names (between its `names` markers), through
// libpressured from a fake daemon (a QLocalServer): every gesture arrives as a point event of that name
// and takes its touch as the table says, every touch phase as a touch, every other message type and
// device change as what the module makes of it. A name the table adds fails here until the module
// handles it. A `type` it does not know is no point event: not a gesture, and never a touch.
#include "connection.h"

#include <pressured.h>

#include <QtCore/QFile>
#include <QtCore/QHash>
#include <QtCore/QSet>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QLocalServer>
#include <QtNetwork/QLocalSocket>
#include <QtTest/QtTest>

class TestVocabulary : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void everyNameOfTheTableIsHandled();
    void kindOfKnowsGesturesAndTouchesOnly();
    void anUnknownTypeIsNoPointEvent();

private:
    /// Serves @p lines (after a hello) to a PressuredConnection and collects what it emits into @p got.
    struct Received
    {
        QList<PointEvent> points;
        QStringList devices;
        int settings = 0, actions = 0, errors = 0;
    };
    void serve(const QStringList &lines, Received &got);

    QHash<QString, QStringList> m_names;
    QSet<QString> m_takingTouch;
};

void TestVocabulary::initTestCase()
{
    QFile doc(QStringLiteral(PRESSURED_REPO_ROOT "/docs/protocol.md"));
    QVERIFY2(doc.open(QIODevice::ReadOnly), qPrintable(doc.fileName()));
    const QString text = QString::fromUtf8(doc.readAll());
    const qsizetype start = text.indexOf(QLatin1String("<!-- names -->"));
    const qsizetype end = text.indexOf(QLatin1String("<!-- /names -->"));
    QVERIFY2(start >= 0 && end > start, "docs/protocol.md has no table of names");
    for (const QString &line : text.mid(start, end - start).split(QLatin1Char('\n'))) {
        QStringList cells = line.split(QLatin1Char('|'));
        for (QString &c : cells)
            c = c.trimmed();
        if (!line.startsWith(QLatin1Char('|')) || cells.size() < 5 || cells[1] == QLatin1String("vocabulary")
            || cells[1].startsWith(QLatin1Char('-')))
            continue;
        const QStringList spans = cells[3].split(QLatin1Char('`'));
        for (qsizetype i = 1; i < spans.size(); i += 2) {
            m_names[cells[1]].append(spans[i]);
            if (cells[4] == QLatin1String("yes"))
                m_takingTouch.insert(spans[i]);
        }
    }
    QVERIFY(!m_names.value(QStringLiteral("gesture")).isEmpty());
}

static QString point(const QString &type, int contact, const QString &extra = QString())
{
    return QStringLiteral(R"({"type":"%1","time":1.000000,"device":1,"contact":%2,"x":10,"y":20,"screenX":10.0,)"
                          R"("screenY":20.0,"force":1.5,"maximumPossibleForce":2.0%3})")
        .arg(type).arg(contact).arg(extra);
}

void TestVocabulary::serve(const QStringList &lines, Received &got)
{
    QTemporaryDir dir;
    QLocalServer server;
    QVERIFY2(server.listen(dir.filePath(QStringLiteral("s.sock"))), qPrintable(server.errorString()));
    PressuredConnection connection;
    connect(&connection, &PressuredConnection::pointEvent, this, [&](const PointEvent &e) { got.points.append(e); });
    connect(&connection, &PressuredConnection::deviceEvent, this,
            [&](const QString &change, const QVariantMap &) { got.devices.append(change); });
    connect(&connection, &PressuredConnection::settingsChanged, this, [&] { ++got.settings; });
    connect(&connection, &PressuredConnection::actionChosen, this, [&] { ++got.actions; });
    connect(&connection, &PressuredConnection::errorReceived, this, [&] { ++got.errors; });
    connection.start(server.fullServerName(), -1, 0);
    QVERIFY(server.waitForNewConnection(5000));
    QLocalSocket *socket = server.nextPendingConnection();
    QByteArray out = R"({"type":"hello","protocol":1,"version":"0.1.0","devices":[],"settings":{"forceTouch":true}})" "\n";
    for (const QString &line : lines)
        out += line.toUtf8() + '\n';
    // A last touch marks the end: everything before it has been handled once it arrives.
    out += point(QStringLiteral("touch"), 999, QStringLiteral(R"(,"phase":"began")")).toUtf8() + '\n';
    socket->write(out);
    socket->flush();
    QTRY_VERIFY_WITH_TIMEOUT(!got.points.isEmpty() && got.points.last().contact == 999, 5000);
    got.points.removeLast();
}

void TestVocabulary::everyNameOfTheTableIsHandled()
{
    // How the module handles each message type other than gestures (a type the table adds must be given
    // its handling here, and in connection.cpp).
    static const QHash<QString, QString> messages{
        { QStringLiteral("touch"), QStringLiteral("pointEvent") },
        { QStringLiteral("hello"), QStringLiteral("connected") },
        { QStringLiteral("device"), QStringLiteral("deviceEvent") },
        { QStringLiteral("settings"), QStringLiteral("settingsChanged") },
        { QStringLiteral("action"), QStringLiteral("actionChosen") },
        { QStringLiteral("error"), QStringLiteral("errorReceived") },
        { QStringLiteral("reply"), QStringLiteral("statusReceived (a status reply; the others are not asked for)") },
        { QStringLiteral("dropped"), QStringLiteral("ignored (the next moved has the latest state)") },
        { QStringLiteral("bye"), QStringLiteral("ignored (the disconnection follows)") },
    };
    // Through libpressured's masks and enums (its own test holds those to the table), or the daemon's
    // strings handed on.
    static const QSet<QString> elsewhere{ QStringLiteral("events"), QStringLiteral("wants"), QStringLiteral("request"),
                                          QStringLiteral("error"), QStringLiteral("reason"), QStringLiteral("kind"),
                                          QStringLiteral("capability"), QStringLiteral("sensitivity"),
                                          QStringLiteral("source") };
    for (auto it = m_names.cbegin(); it != m_names.cend(); ++it) {
        const QSet<QString> here{ QStringLiteral("gesture"), QStringLiteral("message"), QStringLiteral("phase"),
                                  QStringLiteral("change") };
        QVERIFY2(here.contains(it.key()) || elsewhere.contains(it.key()),
                 qPrintable(QStringLiteral("a vocabulary this test does not know: ") + it.key()));
    }

    QStringList lines;
    int contact = 1;
    const QStringList gestures = m_names.value(QStringLiteral("gesture"));
    for (const QString &g : gestures)
        lines << point(g, contact++);
    const QStringList phases = m_names.value(QStringLiteral("phase"));
    for (const QString &p : phases)
        lines << point(QStringLiteral("touch"), contact++, QStringLiteral(R"(,"phase":"%1")").arg(p));
    const QStringList changes = m_names.value(QStringLiteral("change"));
    for (const QString &c : changes)
        lines << QStringLiteral(R"({"type":"device","change":"%1","device":{"id":1,"name":"n"}})").arg(c);
    int settings = 0, actions = 0, errors = 0;
    for (const QString &m : m_names.value(QStringLiteral("message"))) {
        QVERIFY2(messages.contains(m), qPrintable(QStringLiteral("docs/protocol.md names the message type %1: "
                                                                 "handle it in connection.cpp and say so here").arg(m)));
        if (m == QLatin1String("settings")) {
            lines << QStringLiteral(R"({"type":"settings","settings":{"forceTouch":false}})");
            ++settings;
        } else if (m == QLatin1String("action")) {
            lines << QStringLiteral(R"({"type":"action","app":"a","action":"b"})");
            ++actions;
        } else if (m == QLatin1String("error")) {
            lines << QStringLiteral(R"({"type":"error","error":"invalid-argument","message":"m"})");
            ++errors;
        } else if (m == QLatin1String("reply") || m == QLatin1String("dropped")) {
            lines << QStringLiteral(R"({"type":"%1"})").arg(m);
        }
    }

    Received got;
    serve(lines, got);
    if (QTest::currentTestFailed())
        return;
    // Contact n is the n-th line's: a line the module dropped leaves its contact out.
    QHash<qint64, PointEvent> byContact;
    for (const PointEvent &e : got.points)
        byContact.insert(e.contact, e);
    for (qsizetype i = 0; i < gestures.size(); ++i) {
        const PointEvent e = byContact.value(i + 1);
        QVERIFY2(byContact.contains(i + 1) && e.isGesture() && QString::fromLatin1(e.typeName()) == gestures[i],
                 qPrintable(QStringLiteral("docs/protocol.md names the gesture %1: no such gesture came out of the module")
                                .arg(gestures[i])));
        QCOMPARE(e.takesTouch(), m_takingTouch.contains(gestures[i]));
    }
    for (qsizetype i = 0; i < phases.size(); ++i) {
        const PointEvent e = byContact.value(gestures.size() + i + 1);
        QVERIFY2(e.kind == PointEvent::Touch && e.phase != PointEvent::NoPhase,
                 qPrintable(QStringLiteral("docs/protocol.md names the phase %1: no such touch came out of the module")
                                .arg(phases[i])));
    }
    QCOMPARE(got.points.size(), gestures.size() + phases.size());
    QCOMPARE(got.devices, changes);
    QCOMPARE(got.settings, settings);
    QCOMPARE(got.actions, actions);
    QCOMPARE(got.errors, errors);
}

void TestVocabulary::kindOfKnowsGesturesAndTouchesOnly()
{
    QCOMPARE(PointEvent::kindOf(PRESSURED_EVENT_TOUCH), std::optional(PointEvent::Touch));
    QCOMPARE(PointEvent::kindOf(PRESSURED_EVENT_LONG_PRESS), std::optional(PointEvent::LongPress));
    for (int type : { int(PRESSURED_EVENT_UNKNOWN), int(PRESSURED_EVENT_DEVICE), int(PRESSURED_EVENT_CONNECTED), 105, 199 })
        QVERIFY2(!PointEvent::kindOf(type), qPrintable(QString::number(type)));
}

void TestVocabulary::anUnknownTypeIsNoPointEvent()
{
    Received got;
    serve({ point(QStringLiteral("squeeze"), 5, QStringLiteral(R"(,"phase":"began")")) }, got);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(got.points.size(), 0);
}

QTEST_GUILESS_MAIN(TestVocabulary)
#include "tst_vocabulary.moc"
