import PressureCore

/// A capture played into the daemon instead of a device (`pressured --replay`): at the capture's own pace
/// scaled by `speed`, or as fast as the loop goes with speed 0. It starts when the first client has
/// subscribed, so nothing is missed, and maps capture time to the monotonic clock for the loop's timer.
final class ReplaySource {
    let capture: Capture
    let speed: Double
    /// Events handed to the loop per wake-up at speed 0, so clients are written to between batches.
    static let batch = 2048
    private(set) var next = 0
    private var startMonotonic: Int64? = nil
    private var firstTime: Int64

    init(capture: Capture, speed: Double) {
        self.capture = capture
        self.speed = speed
        firstTime = capture.events.first?.time.microseconds ?? 0
    }

    var started: Bool { startMonotonic != nil }
    var finished: Bool { next >= capture.events.count }

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
        guard started, !finished else { return nil }
        var t = capture.events[next].time
        if let d = deadline, d < t { t = d }
        return monotonic(t)
    }

    /// The events due by monotonic `now` (a batch at speed 0).
    func due(atMonotonic now: Int64) -> ArraySlice<InputEvent> {
        guard started, !finished else { return [] }
        let events = capture.events
        var end = next
        if speed <= 0 {
            end = min(events.count, next + Self.batch)
        } else {
            let limit = captureTime(atMonotonic: now)
            while end < events.count, events[end].time <= limit { end += 1 }
        }
        defer { next = end }
        return events[next..<end]
    }
}
