// SPDX-License-Identifier: MIT
#pragma once

#include <QtCore/QPointF>
#include <QtCore/QString>
#include <QtCore/QVariantList>

#include <optional>

/// One gesture or touch event from the daemon, copied out of libpressured's event so it can outlive it.
/// Internal to the module (not QML API).
struct PointEvent
{
    enum Kind { Peek, Pop, Dismiss, QuickActions, LongPress, Touch };
    enum Phase { NoPhase, Began, Moved, Ended, Cancelled };

    Kind kind = Touch;
    Phase phase = NoPhase;
    double time = 0;            ///< the daemon's `time` (input clock, seconds)
    qint64 arrivalMs = 0;       ///< when it was read here, on QElapsedTimer's monotonic clock
    qint64 device = 0;
    qint64 contact = 0;
    QPointF screen;             ///< `screenX`, `screenY`: screen pixels
    double force = 0;
    double maximumPossibleForce = 0;
    double progress = -1;       ///< `progress`, -1 where absent
    QString region;             ///< the region tag, empty where none
    QString app;
    QVariantList items;         ///< quick-action items: maps with id, title, subtitle, icon

    /// The key a contact is known by across devices.
    quint64 key() const { return contactKey(device, contact); }
    static quint64 contactKey(qint64 device, qint64 contact)
    {
        return (quint64(device) << 40) ^ quint64(contact);
    }
    bool isGesture() const { return kind != Touch; }
    /// Whether the gesture takes its touch (docs/protocol.md, "Names"): the daemon answered that finger,
    /// so it must not also click what lies beneath. False for a dismiss, and for touches.
    bool takesTouch() const;
    /// The kind of a libpressured event type; none for a type that is no gesture or touch (a session
    /// message, or one this module does not know: the list of types grows).
    static std::optional<Kind> kindOf(int pressuredEventType);
    bool isEnd() const { return phase == Ended || phase == Cancelled; }
    /// The gesture's name as the protocol spells it ("touch" for touches).
    const char *typeName() const;
};
