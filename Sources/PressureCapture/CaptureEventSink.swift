import PressureCore

/// Where a reader's events go as it reads, each with the device it belongs to (an evtest session, a
/// getevent node, a `libinput record` device; 0 for evemu): a first pass counts them (``CaptureSurvey``), a
/// second keeps one device's (``CaptureBatch``). Readers are generic over it, so neither costs a call.
protocol CaptureEventSink {
    mutating func take(_ event: InputEvent, device: Int)
}
