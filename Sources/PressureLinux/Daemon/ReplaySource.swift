import PressureCore

/// A capture played into the daemon instead of a device (`pressured --replay`): the core's one replay
/// driver (``CaptureReplay``), with pacing added. At the capture's own pace scaled by `speed`, or as fast
/// as the loop goes with speed 0. It starts when the first client has subscribed, so nothing is missed,
/// and maps capture time to the monotonic clock for the loop's timer.
final class ReplaySource {
    let speed: Double
    /// Events handed to the loop per wake-up at speed 0, so clients are written to between batches.
    static let batch = 2048
    private var replay: CaptureReplay
    private var startMonotonic: Int64? = nil
    private let firstTime: Int64

    init(capture: Capture, speed: Double) {
        replay = CaptureReplay(capture.events)
        self.speed = speed
        firstTime = capture.events.first?.time.microseconds ?? 0
    }

    var started: Bool { startMonotonic != nil }
    var finished: Bool { replay.isFinished }

    func start(atMonotonic now: Int64) {
        if startMonotonic == nil { startMonotonic = now }
    }

    /// Where capture time `t` falls on the monotonic clock.
    func monotonic(_ t: Timestamp) -> Int64? {
        guard let start = startMonotonic else { return nil }
        if speed <= 0 { return start }
        return start + Int64(Double(t.microseconds - firstTime) / speed)
    }

    /// The capture time the monotonic `now` stands for.
    func captureTime(atMonotonic now: Int64) -> Timestamp {
        guard let start = startMonotonic, speed > 0 else { return Timestamp(microseconds: Int64.max) }
        return Timestamp(microseconds: firstTime + Int64(Double(now - start) * speed))
    }

    /// When the loop should next wake for this source, on the monotonic clock.
    func nextWake(deadline: Timestamp?) -> Int64? {
        guard started, var t = replay.nextTime else { return nil }
        if let d = deadline, d < t { t = d }
        return monotonic(t)
    }

    /// The events due by monotonic `now` (a batch at speed 0).
    func due(atMonotonic now: Int64) -> ArraySlice<InputEvent> {
        guard started else { return [] }
        if speed <= 0 { return replay.take(atMost: Self.batch) }
        return replay.take(through: captureTime(atMonotonic: now))
    }
}
