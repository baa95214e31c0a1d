/// The capture formats pressured writes (`pressurectl record --format`), both readable by their own tools and
/// by ours: two of the ``CaptureFormat``s it reads.
public enum RecordingFormat: String, Sendable, CaseIterable {
    /// evemu 1.3 text: `evemu-play` and `evemu-device` take it.
    case evemu
    /// `libinput record` YAML, file format version 1: `libinput replay` takes it.
    case libinput
}
