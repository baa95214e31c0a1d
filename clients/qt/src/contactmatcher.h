// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QHash>
#include <QtCore/QPointF>
#include <QtCore/QString>

#include <functional>

/// Pairs Qt's touch points (QEventPoint ids) of one window with the daemon's contacts, by where and when
/// they began, and learns the offset between the two coordinate systems.
///
/// Both sides are in screen pixels: Qt's as Qt believes (globalPosition × devicePixelRatio), the daemon's
/// `screenX`/`screenY`. They differ by `offset()` (daemon = Qt + offset) where Qt does not know where its
/// window is (Wayland, a kiosk compositor that places windows itself) or the daemon's screen geometry is
/// configured differently. The offset starts at zero (Qt's idea) and is learned from unambiguous pairs:
/// one finger down on each side, beginning within `timeWindowMs` of each other. Pure logic, no Qt event
/// types: unit-tested on its own (tests/tst_contactmatcher.cpp).
class ContactMatcher
{
public:
    struct Options
    {
        qint64 timeWindowMs = 300;  ///< how far apart in time the two begins of one finger may be
        double radiusPx = 48;       ///< how far apart in space (after the offset) they may be
        int learnSamples = 5;       ///< pairs the offset is averaged over
        double disagreePx = 24;     ///< a learned offset farther than this from Qt's idea is reported
    };

    ContactMatcher() = default;
    explicit ContactMatcher(const Options &options) : m_options(options) { }

    void qtPressed(int pointId, QPointF qtScreen, qint64 ms);
    void qtMoved(int pointId, QPointF qtScreen);
    void qtReleased(int pointId, qint64 ms);

    void contactBegan(quint64 key, QPointF screen, qint64 ms);
    void contactMoved(quint64 key, QPointF screen);
    void contactEnded(quint64 key, qint64 ms);

    /// The contact paired with Qt's point @p pointId, or 0.
    quint64 contactFor(int pointId) const;
    /// The Qt point paired with contact @p key, or -1 (also once the point was released).
    int pointFor(quint64 key) const;
    /// The Qt point paired with contact @p key, down or released, or -1.
    int pairedPoint(quint64 key) const { return m_contactToPoint.value(key, -1); }
    /// Whether the Qt point @p pointId is still down.
    bool isPointDown(int pointId) const;

    /// daemon screen pixels = Qt screen pixels + offset.
    QPointF offset() const { return m_offset; }
    /// How many unambiguous pairs the offset rests on (0: Qt's idea, not yet confirmed).
    int samples() const { return m_samples; }
    /// Qt touches in a row that found no contact.
    int unmatchedInARow() const { return m_unmatchedInARow; }
    /// One sentence about how the two worlds line up (for Pressured.status); empty while they agree.
    QString disagreement() const;

    QPointF toQt(QPointF daemonScreen) const { return daemonScreen - m_offset; }
    QPointF toDaemon(QPointF qtScreen) const { return qtScreen + m_offset; }

    /// Called with (pointId, contact key) whenever a pair is made.
    std::function<void(int, quint64)> onMatched;
    /// Called when the offset changed (regions must move).
    std::function<void()> onOffsetChanged;

    /// Forgets what ended more than the time window before @p nowMs.
    void expire(qint64 nowMs);
    /// Forgets every contact (the daemon went away); Qt's points and the offset stay.
    void clearContacts();
    /// Whether Qt touches that find no contact count as unmatched (only while the daemon serves).
    void setCounting(bool on) { m_counting = on; if (!on) m_unmatchedInARow = 0; }

private:
    struct Side
    {
        QPointF began;      ///< where it began (screen pixels of its own world)
        QPointF now;
        qint64 beganMs = 0;
        qint64 endedMs = -1; ///< -1 while down
        bool paired = false;
    };
    void match(qint64 nowMs);
    void pair(int pointId, quint64 key, bool unambiguous);

    Options m_options;
    QHash<int, Side> m_points;
    QHash<quint64, Side> m_contacts;
    QHash<int, quint64> m_pointToContact;
    QHash<quint64, int> m_contactToPoint;
    QPointF m_offset;
    QPointF m_sum;
    int m_samples = 0;
    int m_disagreeInARow = 0;
    int m_unmatchedInARow = 0;
    bool m_counting = false;
};
