import PressureCore

/// The second pass's sink: the events of one device (of every device when `device` is nil), appended.
struct CaptureBatch: CaptureEventSink {
    let device: Int?
    var events: [InputEvent] = []

    @inline(__always)
    mutating func take(_ event: InputEvent, device: Int) {
        if self.device == nil || self.device == device { events.append(event) }
    }
}
