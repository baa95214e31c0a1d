import PressureCore
import PressureHub

/// The loop's clock readings for the hub's latency figures (`docs/metrics.md`): the hub reads no clock,
/// so the loop tells it when the frames it was handed had their lines queued, and when they were
/// written. On CLOCK_MONOTONIC, the clock evdev stamps events on (``EvdevDevice`` sets it with
/// EVIOCSCLOCKID); read only when the hub waits for the reading, so a loop nobody measures reads none.
enum LatencyClock {
    /// The frames just fed (a device's read, a replay's step) have their lines queued.
    static func framesQueued(_ hub: inout Hub) {
        if hub.awaitsQueueTime { hub.framesQueued(now: Timestamp(microseconds: monotonicMicroseconds())) }
    }

    /// Written what could be: frames whose lines every client now has are delivered.
    static func framesWritten(_ hub: inout Hub) {
        if hub.awaitsDelivery { hub.framesWritten(now: Timestamp(microseconds: monotonicMicroseconds())) }
    }
}
