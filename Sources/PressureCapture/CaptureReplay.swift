import PressureCore

/// The one replay driver: plays a capture's events, in order, into a ``TouchPipeline`` with
/// ``run(_:through:deliver:announce:)`` (`pressurectl replay`, the plot, tests, fuzz targets) or into the
/// daemon's ``Hub`` (`--replay`). One driver, so what apps receive cannot depend on who played it:
/// - events go out in slices (``take(atMost:through:)``), fed as a live device's are
///   (``TouchPipeline/feed(_:)``): each long-press deadline is ticked in before the first event at or
///   after it;
/// - at the end (``isFinished``) the source is gone, as an unplugged device: contacts still down are
///   cancelled at ``lastTime``; later deadlines are not fired, as the recording says no time passed;
/// - only slices leave the driver, so a streamed capture (``CaptureStream``) plays exactly as one in memory.
public struct CaptureReplay {
    /// The events going out: all of them for a capture in memory, the current batch for a stream.
    private var events: [InputEvent]
    private var next = 0
    /// Where the next batch comes from, read into `spare` (the slice last handed out may still hold
    /// `events`: refilling that would copy it) and swapped in.
    private var stream: CaptureStream?
    private var spare: [InputEvent] = []
    /// The time of the last event handed out: where a replay that has ended cancels what is still down.
    public private(set) var lastTime: Timestamp?
    /// Events in the capture, for log lines; nil for a stream whose first pass read only the header.
    public let eventCount: Int?

    public init(_ events: [InputEvent]) {
        self.events = events
        eventCount = events.count
    }

    /// A replay of a capture streamed from its file, its first batch read.
    public init(_ stream: CaptureStream) throws(CaptureError) {
        events = []
        eventCount = stream.eventCount
        self.stream = stream
        try refill()
    }

    /// Whether every event was handed out.
    public var isFinished: Bool { next >= events.count }
    /// Whether every line of the capture has been checked (``CaptureStream/isChecked``): until then,
    /// what is made of its events is held back, as the rest may be an error.
    public var isChecked: Bool { stream?.isChecked ?? true }

    /// Checks the rest of the capture now (``CaptureStream/checkRest()``).
    public mutating func checkRest() throws(CaptureError) {
        try stream?.checkRest()
    }
    /// The capture time of the next event to go out; nil once finished.
    public var nextTime: Timestamp? { isFinished ? nil : events[next].time }

    /// The next events: at most `limit` of them, and none later than `time` (capture time) when given. A
    /// stream's batch ends a slice too: take again for what follows.
    public mutating func take(atMost limit: Int = .max, through time: Timestamp? = nil) throws(CaptureError)
        -> ArraySlice<InputEvent>
    {
        var end = next
        let last = limit >= events.count - next ? events.count : next + limit
        if let time {
            while end < last, events[end].time <= time { end += 1 }
        } else {
            end = last
        }
        guard end > next else { return [] }
        lastTime = events[end - 1].time
        let slice = events[next..<end]
        next = end
        if next == events.count { try refill() }
        return slice
    }

    /// The next batch in place of the one handed out, until one has events or the stream ends.
    private mutating func refill() throws(CaptureError) {
        guard var s = stream else { return }
        stream = nil
        spare.removeAll(keepingCapacity: true)
        while spare.isEmpty, !s.isFinished { try s.read(into: &spare) }
        swap(&events, &spare)
        next = 0
        if !s.isFinished { stream = s }
    }

    /// Plays `replay` into `pipeline` and calls `deliver` with the pipeline's outputs whenever there are
    /// some, and `announce` whenever apps would hear the device anew (what it learned changed its force: the
    /// daemon sends `device changed` then). A stream's error (a bad line, where the lines are checked as
    /// they are read; its file changed since its first pass) ends the replay where it happened, contacts
    /// still down left as they are.
    ///
    /// While the capture is not yet checked whole (``isChecked``), `checkRestNow` is asked after each
    /// slice: true has the rest checked at once (``checkRest()``), as a caller that holds back what it
    /// was delivered does when it holds enough.
    public static func run(
        _ replay: inout CaptureReplay, through pipeline: inout TouchPipeline,
        deliver: (_ outputs: [PressureEvent], _ transitions: [TouchPipeline.StateTransition]) -> Void,
        announce: (_ pipeline: TouchPipeline) -> Void = { _ in }, checkRestNow: () -> Bool = { false }
    ) throws(CaptureError) {
        while !replay.isFinished {
            play(try replay.take(), through: &pipeline, deliver, announce)
            if !replay.isChecked, checkRestNow() { try replay.checkRest() }
        }
        end(at: replay.lastTime, through: &pipeline, deliver, announce)
    }

    /// ``run(_:through:deliver:announce:)-(inout CaptureReplay,_,_,_)`` for events in memory.
    public static func run(
        _ events: [InputEvent], through pipeline: inout TouchPipeline,
        deliver: (_ outputs: [PressureEvent], _ transitions: [TouchPipeline.StateTransition]) -> Void,
        announce: (_ pipeline: TouchPipeline) -> Void = { _ in }
    ) {
        play(events[...], through: &pipeline, deliver, announce)
        end(at: events.last?.time, through: &pipeline, deliver, announce)
    }

    /// Feeds the slice through the pipeline's own loop (``TouchPipeline/feed(_:from:stoppingAfterNewsBeyond:)``),
    /// which stops after each event that has news, so what each event gave is delivered before the next
    /// is fed, as with one `feed` an event; but the loop runs in the core's module, where it is inlined,
    /// rather than one call across the module boundary an event.
    @inline(__always)
    private static func play(
        _ events: ArraySlice<InputEvent>, through pipeline: inout TouchPipeline,
        _ deliver: ([PressureEvent], [TouchPipeline.StateTransition]) -> Void, _ announce: (TouchPipeline) -> Void
    ) {
        var k = events.startIndex
        while k < events.endIndex {
            k = pipeline.feed(events, from: k, stoppingAfterNewsBeyond: pipeline.force.learnedRevision)
            flush(&pipeline, deliver, announce)
        }
    }

    /// The source is gone: what is still down is cancelled at the last event's time.
    private static func end(
        at time: Timestamp?, through pipeline: inout TouchPipeline,
        _ deliver: ([PressureEvent], [TouchPipeline.StateTransition]) -> Void, _ announce: (TouchPipeline) -> Void
    ) {
        guard let time else { return }
        pipeline.cancelAll(at: time)
        flush(&pipeline, deliver, announce)
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
