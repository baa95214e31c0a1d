/// Runs recorded events through a ``TouchPipeline`` exactly as the daemon does with live ones: each
/// long-press deadline is ticked in before the first event at or after it, and when the events run out
/// every contact still down is cancelled (the source is gone, as when a device is unplugged), so every
/// touch ends and every peek ends in a pop or a dismiss.
public enum CaptureReplay {
    /// Feeds `events` and calls `deliver` with the pipeline's outputs whenever there are some, and
    /// `announce` whenever apps would hear the device anew (what it learned changed its force: the
    /// daemon sends `device changed` then). Deadlines later than the last event are not fired: the
    /// recording says no more time passed.
    public static func run(
        _ events: [InputEvent], through pipeline: inout TouchPipeline,
        deliver: (_ outputs: [PressureEvent], _ transitions: [TouchPipeline.StateTransition]) -> Void,
        announce: (_ pipeline: TouchPipeline) -> Void = { _ in }
    ) {
        var last: Timestamp? = nil
        for e in events {
            pipeline.feed(e)
            if !pipeline.outputs.isEmpty || !pipeline.transitions.isEmpty { flush(&pipeline, deliver) }
            if pipeline.deviceChanged, pipeline.takeDeviceChange() { announce(pipeline) }
            last = e.time
        }
        if let end = last {
            pipeline.tick(end)
            pipeline.cancelAll(at: end)
            flush(&pipeline, deliver)
            if pipeline.takeDeviceChange() { announce(pipeline) }
        }
    }

    @inline(__always)
    private static func flush(
        _ pipeline: inout TouchPipeline,
        _ deliver: ([PressureEvent], [TouchPipeline.StateTransition]) -> Void
    ) {
        if pipeline.outputs.isEmpty && pipeline.transitions.isEmpty { return }
        deliver(pipeline.outputs, pipeline.transitions)
        pipeline.clearOutputs()
    }
}
