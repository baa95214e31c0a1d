// SPDX-License-Identifier: MIT
// The protocol's gesture names as this module knows them: its kinds, their names, which take a touch.
// tests/tst_vocabulary.cpp holds them to docs/protocol.md's table of names.
#include "pointevent.h"

#include <pressured.h>

const char *PointEvent::typeName() const
{
    switch (kind) {
    case Peek: return "peek";
    case Pop: return "pop";
    case Dismiss: return "dismiss";
    case QuickActions: return "quickActions";
    case LongPress: return "longPress";
    case Touch: return "touch";
    }
    return "touch";
}

bool PointEvent::takesTouch() const
{
    switch (kind) {
    case Peek:
    case Pop:
    case QuickActions:
    case LongPress: return true;
    case Dismiss:
    case Touch: return false;
    }
    return false;
}

std::optional<PointEvent::Kind> PointEvent::kindOf(int pressuredEventType)
{
    switch (pressuredEventType) {
    case PRESSURED_EVENT_PEEK: return Peek;
    case PRESSURED_EVENT_POP: return Pop;
    case PRESSURED_EVENT_DISMISS: return Dismiss;
    case PRESSURED_EVENT_QUICK_ACTIONS: return QuickActions;
    case PRESSURED_EVENT_LONG_PRESS: return LongPress;
    case PRESSURED_EVENT_TOUCH: return Touch;
    default: return std::nullopt;
    }
}
