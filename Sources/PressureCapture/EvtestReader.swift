import PressureCore

/// Reads what `evtest /dev/input/eventN` prints, as pasted into bug reports and mailing lists: an
/// optional header (``EvtestHeader``) and `Event:` lines (``EvtestEventLine``).
/// - Each header opens a session: devices 0..n-1, chosen with `deviceIndex`, by default the first touch
///   device with events. Without a header: `description` (`--desc`, completed by
///   ``AssumedDescription/complete(_:from:name:)``), else ``AssumedDescription/infer(from:name:identity:)``.
/// - A mail client's wrap is rejoined where it can only be one: a line ending after `code N` with the
///   next beginning `(`, or ending after the code's name with the next beginning `value`.
/// - Other text is skipped; a malformed `Event:` line is an error naming its line. Times are kept as given.
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
