import PressureCapture
import PressureCore
import PressureHub

/// A capture played into the daemon instead of a device (`pressured --replay`): the core's one replay
/// driver (``CaptureReplay``), with pacing added. At the capture's own pace scaled by `speed`, or as fast
/// as the loop goes with speed 0. It starts when the first client has subscribed, so nothing is missed.
///
/// The replayed device keeps the capture's times; its ``clock`` tells the hub how they stand to the
/// monotonic clock, so the hub fires its long presses from the loop's one timer as it does a live
/// device's, and this source only says when its next events are due.
final class ReplaySource {
    let speed: Double
    /// Events handed to the hub per wake-up at speed 0 at most, so clients are written to between batches...
    static let batch = 2048
    /// ...in slices of this many, the loop stopping early once a reader the replay waits for has its fill
    /// (``ReplayRun/step(now:hub:clients:)``): a slice of ten contacts' frames queues some 16 KiB for a touch
    /// subscriber, so one that keeps up is never coalesced.
    static let slice = 256
    // `@exclusivity(unchecked)` on what each step reads: the loop's thread alone, never inside another
    // access of them (checked when compiled); see ``Daemon``'s `hub`.
    @exclusivity(unchecked) private var replay: CaptureReplay
    private let firstTime: Timestamp
    /// How capture time stands to the monotonic clock: nothing until started, or at speed 0.
    @exclusivity(unchecked) private(set) var clock = DeviceClock.own

    init(_ replay: CaptureReplay, speed: Double) {
        self.replay = replay
        self.speed = speed
        firstTime = replay.nextTime ?? Timestamp(microseconds: 0)
    }

    @exclusivity(unchecked) private(set) var started = false
    var finished: Bool { replay.isFinished }
    /// The capture's events (its whole file is checked before a replay starts).
    var eventCount: Int { replay.eventCount ?? 0 }

    func start(atMonotonic now: Int64) {
        guard !started else { return }
        started = true
        if speed > 0 { clock = .paced(start: Timestamp(microseconds: now), origin: firstTime, speed: speed) }
    }

    /// When the loop should next wake for this source's events, on the monotonic clock (at speed 0 the
    /// loop goes on as long as its readers keep up, and no time is due).
    var nextWake: Int64? {
        replay.nextTime.flatMap { clock.hubTime(of: $0)?.microseconds }
    }

    /// The events due by monotonic `now` (a slice at speed 0), as far as the stream's batch goes: take
    /// again for more. The capture is read from its file as it plays; an error is its file failing.
    func due(atMonotonic now: Int64) throws(CaptureError) -> ArraySlice<InputEvent> {
        guard started else { return [] }
        guard let limit = clock.deviceTime(at: Timestamp(microseconds: now)) else {
            return try replay.take(atMost: Self.slice)
        }
        return try replay.take(through: limit)
    }
}
