import PressureCore

/// A sink for a pass that only checks the lines (an evemu first pass, a description file, a check ahead).
struct IgnoredEvents: CaptureEventSink {
    @inline(__always)
    func take(_ event: InputEvent, device: Int) {}
}
