// SPDX-License-Identifier: MIT
// ContactMatcher on its own: pairing by place and time, learning the window's offset, disagreements.
#include "contactmatcher.h"

#include <QtTest/QtTest>

class TestContactMatcher : public QObject
{
    Q_OBJECT
private slots:
    void pairsByPlaceAndTime();
    void learnsOffsetFromFirstTouch();
    void contactFirstThenPress();
    void twoFingersPairByPlace();
    void tooLateIsNoPair();
    void onePairAfterLearningDoesNotMoveOffset();
    void unmatchedTouchesAreReported();
};

void TestContactMatcher::pairsByPlaceAndTime()
{
    ContactMatcher m;
    int paired = 0;
    m.onMatched = [&](int, quint64) { ++paired; };
    m.contactBegan(7, QPointF(100, 100), 1000);
    m.qtPressed(1, QPointF(102, 99), 1010);
    QCOMPARE(paired, 1);
    QCOMPARE(m.contactFor(1), quint64(7));
    QCOMPARE(m.pointFor(7), 1);
    m.qtReleased(1, 1100);
    QCOMPARE(m.pointFor(7), -1); // released: no grab to take any more
}

void TestContactMatcher::learnsOffsetFromFirstTouch()
{
    ContactMatcher m;
    bool moved = false;
    m.onOffsetChanged = [&] { moved = true; };
    m.qtPressed(1, QPointF(20, 20), 1000);
    m.contactBegan(3, QPointF(120, 80), 1020); // the window is at (100, 60) on the daemon's screen
    QCOMPARE(m.contactFor(1), quint64(3));
    QVERIFY(moved);
    QCOMPARE(m.offset(), QPointF(100, 60));
    QVERIFY(m.disagreement().contains(QLatin1String("100, 60")));
    QCOMPARE(m.toQt(QPointF(200, 200)), QPointF(100, 140));
    m.qtReleased(1, 1100);
    m.contactEnded(3, 1100);
    // The next finger pairs by place, even with another contact down elsewhere at the same time.
    m.contactBegan(4, QPointF(900, 900), 2000);
    m.contactBegan(5, QPointF(400, 300), 2005);
    m.qtPressed(2, QPointF(301, 239), 2010);
    QCOMPARE(m.contactFor(2), quint64(5));
}

void TestContactMatcher::contactFirstThenPress()
{
    ContactMatcher m;
    m.contactBegan(1, QPointF(50, 50), 1000);
    QCOMPARE(m.pointFor(1), -1);
    m.qtPressed(9, QPointF(50, 50), 1250);
    QCOMPARE(m.pointFor(1), 9);
}

void TestContactMatcher::twoFingersPairByPlace()
{
    ContactMatcher m;
    m.qtPressed(1, QPointF(100, 100), 1000);
    m.qtPressed(2, QPointF(500, 100), 1001);
    m.contactBegan(11, QPointF(498, 103), 1010);
    m.contactBegan(10, QPointF(101, 100), 1011);
    QCOMPARE(m.contactFor(1), quint64(10));
    QCOMPARE(m.contactFor(2), quint64(11));
    QCOMPARE(m.samples(), 0); // two fingers: nothing unambiguous to learn from
}

void TestContactMatcher::tooLateIsNoPair()
{
    ContactMatcher m;
    m.contactBegan(1, QPointF(50, 50), 1000);
    m.qtPressed(1, QPointF(50, 50), 1400);
    QCOMPARE(m.contactFor(1), quint64(0));
}

void TestContactMatcher::onePairAfterLearningDoesNotMoveOffset()
{
    ContactMatcher m;
    m.qtPressed(1, QPointF(0, 0), 1000);
    m.contactBegan(1, QPointF(10, 10), 1000);
    m.qtReleased(1, 1050);
    m.contactEnded(1, 1050);
    QCOMPARE(m.offset(), QPointF(10, 10));
    // One far pair: paired, offset kept. Two in a row: the window moved, relearned.
    m.qtPressed(2, QPointF(0, 0), 3000);
    m.contactBegan(2, QPointF(300, 300), 3000);
    QCOMPARE(m.contactFor(2), quint64(2));
    QCOMPARE(m.offset(), QPointF(10, 10));
    m.qtReleased(2, 3050);
    m.contactEnded(2, 3050);
    m.qtPressed(3, QPointF(0, 0), 5000);
    m.contactBegan(3, QPointF(300, 300), 5000);
    QCOMPARE(m.offset(), QPointF(300, 300));
}

void TestContactMatcher::unmatchedTouchesAreReported()
{
    ContactMatcher m;
    m.setCounting(true);
    for (int i = 0; i < 3; ++i) {
        m.qtPressed(i, QPointF(10, 10), 1000 + 2000 * i);
        m.qtReleased(i, 1050 + 2000 * i);
        m.expire(1050 + 2000 * i + 1300);
    }
    QCOMPARE(m.unmatchedInARow(), 3);
    QVERIFY(m.disagreement().contains(QLatin1String("no pressured contact")));
}

QTEST_GUILESS_MAIN(TestContactMatcher)
#include "tst_contactmatcher.moc"
