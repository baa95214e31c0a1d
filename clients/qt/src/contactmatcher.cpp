// SPDX-License-Identifier: MIT
#include "contactmatcher.h"

#include <QtCore/QLineF>
#include <QtCore/QList>

#include <algorithm>
#include <cmath>

void ContactMatcher::qtPressed(int pointId, QPointF qtScreen, qint64 ms)
{
    // Qt reuses point ids: a new press is a new finger.
    if (m_pointToContact.contains(pointId))
        m_contactToPoint.remove(m_pointToContact.take(pointId));
    m_points.insert(pointId, Side{ qtScreen, qtScreen, ms, -1, false });
    match(ms);
}

void ContactMatcher::qtMoved(int pointId, QPointF qtScreen)
{
    auto it = m_points.find(pointId);
    if (it != m_points.end())
        it->now = qtScreen;
}

void ContactMatcher::qtReleased(int pointId, qint64 ms)
{
    auto it = m_points.find(pointId);
    if (it != m_points.end() && it->endedMs < 0)
        it->endedMs = ms;
}

void ContactMatcher::contactBegan(quint64 key, QPointF screen, qint64 ms)
{
    m_contacts.insert(key, Side{ screen, screen, ms, -1, false });
    match(ms);
}

void ContactMatcher::contactMoved(quint64 key, QPointF screen)
{
    auto it = m_contacts.find(key);
    if (it != m_contacts.end())
        it->now = screen;
}

void ContactMatcher::contactEnded(quint64 key, qint64 ms)
{
    auto it = m_contacts.find(key);
    if (it != m_contacts.end() && it->endedMs < 0)
        it->endedMs = ms;
}

quint64 ContactMatcher::contactFor(int pointId) const
{
    return m_pointToContact.value(pointId, 0);
}

int ContactMatcher::pointFor(quint64 key) const
{
    const int id = m_contactToPoint.value(key, -1);
    return id >= 0 && isPointDown(id) ? id : -1;
}

bool ContactMatcher::isPointDown(int pointId) const
{
    auto it = m_points.constFind(pointId);
    return it != m_points.constEnd() && it->endedMs < 0;
}

void ContactMatcher::match(qint64 nowMs)
{
    const qint64 window = m_options.timeWindowMs;
    auto candidate = [&](const Side &s) {
        return !s.paired && (s.endedMs < 0 || nowMs - s.endedMs <= window) && nowMs - s.beganMs <= 4 * window;
    };
    struct Pair { int point; quint64 key; double cost; };
    QList<Pair> pairs;
    QList<int> points;
    QList<quint64> contacts;
    for (auto p = m_points.cbegin(); p != m_points.cend(); ++p)
        if (candidate(*p))
            points.append(p.key());
    for (auto c = m_contacts.cbegin(); c != m_contacts.cend(); ++c)
        if (candidate(*c))
            contacts.append(c.key());
    if (points.isEmpty() || contacts.isEmpty())
        return;
    for (int p : points) {
        const Side &ps = m_points[p];
        for (quint64 c : contacts) {
            const Side &cs = m_contacts[c];
            const double dt = std::abs(double(ps.beganMs - cs.beganMs));
            const double d = QLineF(ps.began + m_offset, cs.began).length();
            if (dt <= window && d <= m_options.radiusPx)
                pairs.append({ p, c, d / m_options.radiusPx + dt / double(window) });
        }
    }
    std::sort(pairs.begin(), pairs.end(), [](const Pair &a, const Pair &b) { return a.cost < b.cost; });
    for (const Pair &pr : pairs) {
        if (m_points[pr.point].paired || m_contacts[pr.key].paired)
            continue;
        pair(pr.point, pr.key, false);
        points.removeOne(pr.point);
        contacts.removeOne(pr.key);
    }
    // Nothing near: one finger on each side, beginning together, is the same finger wherever it landed.
    // That is how the offset is learned when Qt's idea of the window's place is wrong.
    auto down = [](const auto &hash) {
        return std::count_if(hash.cbegin(), hash.cend(), [](const Side &s) { return s.endedMs < 0; });
    };
    if (points.size() == 1 && contacts.size() == 1 && down(m_points) <= 1 && down(m_contacts) <= 1) {
        const Side &ps = m_points[points.first()], &cs = m_contacts[contacts.first()];
        if (std::abs(double(ps.beganMs - cs.beganMs)) <= window)
            pair(points.first(), contacts.first(), true);
    }
}

void ContactMatcher::pair(int pointId, quint64 key, bool far)
{
    Side &ps = m_points[pointId];
    Side &cs = m_contacts[key];
    ps.paired = cs.paired = true;
    m_pointToContact.insert(pointId, key);
    m_contactToPoint.insert(key, pointId);
    m_unmatchedInARow = 0;

    const auto single = [](const auto &hash) {
        return std::count_if(hash.cbegin(), hash.cend(), [](const Side &s) { return s.endedMs < 0; }) <= 1;
    };
    if (single(m_points) && single(m_contacts)) {
        const QPointF implied = cs.began - ps.began;
        const QPointF old = m_offset;
        if (far && m_samples > 0 && ++m_disagreeInARow < 2) {
            // One far pair after a learned offset: paired, but not yet trusted to move the offset.
        } else {
            if (far) {
                m_sum = QPointF();
                m_samples = 0;
            }
            m_disagreeInARow = 0;
            if (m_samples < m_options.learnSamples) {
                m_sum += implied;
                ++m_samples;
                m_offset = m_sum / m_samples;
            }
        }
        if (m_offset != old && onOffsetChanged)
            onOffsetChanged();
    }
    if (onMatched)
        onMatched(pointId, key);
}

QString ContactMatcher::disagreement() const
{
    if (m_unmatchedInARow >= 3)
        return QStringLiteral("%1 touches in a row found no pressured contact: is the panel the one pressured "
                              "serves, and does its screen geometry (ScreenSize, rotation) match the window's?")
            .arg(m_unmatchedInARow);
    if (m_samples > 0 && QLineF(QPointF(), m_offset).length() > m_options.disagreePx)
        return QStringLiteral("pressured's touches land %1, %2 px from where Qt places this window (learned "
                              "from %3 touches); regions use pressured's")
            .arg(m_offset.x(), 0, 'f', 0)
            .arg(m_offset.y(), 0, 'f', 0)
            .arg(m_samples);
    return QString();
}

void ContactMatcher::expire(qint64 nowMs)
{
    const qint64 keep = 4 * m_options.timeWindowMs;
    for (auto it = m_points.begin(); it != m_points.end();) {
        if (it->endedMs >= 0 && nowMs - it->endedMs > keep) {
            if (!it->paired && m_counting)
                ++m_unmatchedInARow;
            if (m_pointToContact.contains(it.key()))
                m_contactToPoint.remove(m_pointToContact.take(it.key()));
            it = m_points.erase(it);
        } else {
            ++it;
        }
    }
    for (auto it = m_contacts.begin(); it != m_contacts.end();) {
        if (it->endedMs >= 0 && nowMs - it->endedMs > keep) {
            if (m_contactToPoint.contains(it.key()))
                m_pointToContact.remove(m_contactToPoint.take(it.key()));
            it = m_contacts.erase(it);
        } else {
            ++it;
        }
    }
}

void ContactMatcher::clearContacts()
{
    m_contacts.clear();
    m_contactToPoint.clear();
    m_pointToContact.clear();
}
