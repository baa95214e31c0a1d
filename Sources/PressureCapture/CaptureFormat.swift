/// The text formats a capture is read in, in the order ``CaptureReader`` tries them. (What `pressurectl
/// record` writes is a ``RecordingFormat``, two of these.)
public enum CaptureFormat: String, Sendable {
    case libinputRecord = "libinput record"
    case evemu
    case evtest
    case getevent
}
