/// Where a reader's events go as it reads, each with the device it belongs to (an evtest session, a
/// getevent node, a `libinput record` device; 0 for evemu): a first pass counts them (``CaptureSurvey``), a
/// second keeps one device's (``CaptureBatch``). Readers are generic over it, so neither costs a call.
protocol CaptureEventSink {
    mutating func take(_ event: InputEvent, device: Int)
}

/// The second pass's sink: the events of one device (of every device when `device` is nil), appended.
struct CaptureBatch: CaptureEventSink {
    let device: Int?
    var events: [InputEvent] = []

    @inline(__always)
    mutating func take(_ event: InputEvent, device: Int) {
        if self.device == nil || self.device == device { events.append(event) }
    }
}

/// A sink for a pass that only checks the lines (an evemu first pass, a description file, a check ahead).
struct IgnoredEvents: CaptureEventSink {
    @inline(__always)
    func take(_ event: InputEvent, device: Int) {}
}
