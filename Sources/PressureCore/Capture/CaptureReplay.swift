/// The one replay driver: plays a capture's events, in order, to whatever serves them. `pressurectl
/// replay`, the plot, the tests and fuzz targets play into a ``TouchPipeline`` with ``run(_:through:deliver:announce:)``;
/// the daemon's `--replay` plays into its ``Hub``, paced by the monotonic clock or in batches at full speed.
///
/// Why one driver: what apps receive from a capture must not depend on which of those played it, and the
/// two drivers there were had to be kept equal by a test. They differ only in pacing and in who takes the
/// events, so the rules live here and in what the takers share:
/// - events go out in order, in slices (``take(atMost:through:)``); whoever takes them feeds them as a
///   live device's are fed (``TouchPipeline/feed(_:)``, which the hub uses too), so each long-press
///   deadline is ticked in before the first event at or after it;
/// - when the events run out (``isFinished``) the source is gone, as when a device is unplugged: every
///   contact still down is cancelled at ``lastTime`` (open peeks dismissed), so every touch ends and every
///   peek ends in a pop or a dismiss. Deadlines after the last event are not fired: the recording says no
///   more time passed. (No deadline at or before the last event can be pending then: `feed` fired those
///   before the event, and a contact's own deadline lies after its start.)
///
/// The events stay behind the driver and go out as slices only, so a source that streams a long capture
/// from its file can take the place of the array without changing those who play it.
public struct CaptureReplay: Sendable {
    private let events: [InputEvent]
    private var next = 0
    /// The time of the last event handed out: where a replay that has ended cancels what is still down.
    public private(set) var lastTime: Timestamp?

    public init(_ events: [InputEvent]) {
        self.events = events
    }

    /// Events in the capture, for log lines.
    public var eventCount: Int { events.count }
    /// Whether every event was handed out.
    public var isFinished: Bool { next >= events.count }
    /// The capture time of the next event to go out; nil once finished.
    public var nextTime: Timestamp? { isFinished ? nil : events[next].time }

    /// The next events: at most `limit` of them, and none later than `time` (capture time) when given.
    public mutating func take(atMost limit: Int = .max, through time: Timestamp? = nil) -> ArraySlice<InputEvent> {
        var end = next
        let last = limit >= events.count - next ? events.count : next + limit
        if let time {
            while end < last, events[end].time <= time { end += 1 }
        } else {
            end = last
        }
        defer { next = end }
        if end > next { lastTime = events[end - 1].time }
        return events[next..<end]
    }

    /// Plays `events` into `pipeline` and calls `deliver` with the pipeline's outputs whenever there are
    /// some, and `announce` whenever apps would hear the device anew (what it learned changed its force: the
    /// daemon sends `device changed` then).
    public static func run(
        _ events: [InputEvent], through pipeline: inout TouchPipeline,
        deliver: (_ outputs: [PressureEvent], _ transitions: [TouchPipeline.StateTransition]) -> Void,
        announce: (_ pipeline: TouchPipeline) -> Void = { _ in }
    ) {
        var replay = CaptureReplay(events)
        for e in replay.take() {
            pipeline.feed(e)
            flush(&pipeline, deliver, announce)
        }
        if let end = replay.lastTime {
            pipeline.cancelAll(at: end)
            flush(&pipeline, deliver, announce)
        }
    }

    @inline(__always)
    private static func flush(
        _ pipeline: inout TouchPipeline,
        _ deliver: ([PressureEvent], [TouchPipeline.StateTransition]) -> Void,
        _ announce: (TouchPipeline) -> Void
    ) {
        if !pipeline.outputs.isEmpty || !pipeline.transitions.isEmpty {
            deliver(pipeline.outputs, pipeline.transitions)
            pipeline.clearOutputs()
        }
        if pipeline.deviceChanged, pipeline.takeDeviceChange() { announce(pipeline) }
    }
}
