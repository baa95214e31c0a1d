import PressureCore

/// How a device's event times stand to the hub's one clock, the loop's `CLOCK_MONOTONIC` (on which evdev
/// stamps events): the hub speaks only that clock (``Hub/nextDeadline``, ``Hub/tick(now:)``), and a device
/// with other times says once how they map onto it (``Hub/setClock(_:device:)``).
///
/// A replay is such a device, not re-stamped: apps get the capture's times, as `pressurectl replay` prints
/// them, and a long press takes the configured time of the capture at any speed.
public enum DeviceClock: Hashable, Sendable {
    /// The hub's own clock: a live evdev device.
    case hub
    /// No clock the hub keeps: only the device's events move its time on, so the hub never fires its long
    /// presses (the events after a deadline do). A replay before it starts, or at full speed.
    case own
    /// Device time `origin` at hub time `start`, running `speed` (> 0) times as fast: a paced replay.
    case paced(start: Timestamp, origin: Timestamp, speed: Double)

    /// The device's time at hub time `now`; nil where the hub's time says nothing of the device's.
    public func deviceTime(at now: Timestamp) -> Timestamp? {
        switch self {
        case .hub: return now
        case .own: return nil
        case .paced(let start, let origin, let speed):
            return Timestamp(microseconds: origin.microseconds + Int64(Double(now.microseconds - start.microseconds) * speed))
        }
    }

    /// Where device time `t` falls on the hub's clock; nil where it falls nowhere.
    public func hubTime(of t: Timestamp) -> Timestamp? {
        switch self {
        case .hub: return t
        case .own: return nil
        case .paced(let start, let origin, let speed):
            return Timestamp(microseconds: start.microseconds + Int64(Double(t.microseconds - origin.microseconds) / speed))
        }
    }
}
