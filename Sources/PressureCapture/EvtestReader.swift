import PressureCore

/// Reads what `evtest /dev/input/eventN` prints: an optional header (``EvtestHeader``) and `Event:` lines
/// (``EvtestEventLine``), as pasted into bug reports and mailing lists.
///
/// - A file may hold several evtest sessions, each opened by its own header: they are devices 0..n-1,
///   chosen with `deviceIndex`, by default the first touch device with events (as for `libinput record`).
/// - A session without a header takes its description from `description` (`--desc`, completed from the
///   events by ``AssumedDescription/complete(_:from:name:)``), else from what its events show
///   (``AssumedDescription/infer(from:name:identity:)``), every guess stated in ``Capture/assumptions``.
/// - A mail client's wrap of an event line is rejoined where it can only be one: the line ends after
///   `code N` and the next begins with `(`, or it ends after the code's name and the next begins with
///   `value`.
/// - Text that is neither header nor event (a mail's prose between sessions) is skipped; a line that
///   starts with `Event:` and is malformed is an error naming its line. Times are kept as given.
public enum EvtestReader {
    /// Whether the line (`s` at its start) is an event line or opens a header.
    static func isEvtest(_ s: inout LineScanner) -> Bool {
        s.skipSpaces()
        var probe = s
        return s.take(word: "Event:") || EvtestHeader.openingField(&probe) != nil
    }

    /// One evtest run in the file: its header and how many events it has.
    struct Session {
        var header = EvtestHeader()
        var eventCount = 0
    }

    /// Reads the file's sessions and returns device `deviceIndex` (see the type's documentation).
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, description: DeviceDescription? = nil,
        deviceIndex: Int? = nil
    ) throws(CaptureError) -> Capture {
        try CaptureStream.open(
            CaptureLines(file: file, memory: bytes), format: .evtest, description: description,
            deviceIndex: deviceIndex
        ).readAll()
    }

    /// A session's description: `given` (completed), else its header's, else one worked out from its events.
    static func resolve(
        _ session: Session, evidence: AssumedDescription.Evidence, file: String, given: DeviceDescription?
    ) -> (DeviceDescription, [String]) {
        let name = session.header.name ?? AssumedDescription.name(tool: "evtest", file: file)
        if let d = given { return AssumedDescription.complete(d, from: evidence, name: name) }
        if var d = session.header.description {
            if d.name.isEmpty { d.name = name }
            return (d, [])
        }
        return AssumedDescription.infer(
            from: evidence, name: name, identity: session.header.identity ?? DeviceIdentity())
    }
}
