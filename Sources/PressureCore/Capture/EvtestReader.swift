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
    /// True when some line is an evtest event line or opens an evtest header.
    public static func looksLikeEvtest(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        LineScanner.anyLine(of: bytes, isEvtest)
    }

    /// Whether the line (`s` at its start) is an event line or opens a header.
    static func isEvtest(_ s: inout LineScanner) -> Bool {
        s.skipSpaces()
        var probe = s
        return s.take(word: "Event:") || EvtestHeader.openingField(&probe) != nil
    }

    /// One evtest run in the file: its header and where its events are.
    struct Session {
        var header = EvtestHeader()
        var events: Range<Int>
    }

    /// Reads the file's sessions and returns device `deviceIndex` (see the type's documentation).
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, description: DeviceDescription? = nil,
        deviceIndex: Int? = nil
    ) throws(CaptureError) -> Capture {
        var events: [InputEvent] = []
        events.reserveCapacity(bytes.count / 80)
        let sessions = try scan(bytes, file: file, into: &events)
        let chosen = try DeviceChoice.choose(
            count: sessions.count, wanted: deviceIndex, file: file, hasEvents: { !sessions[$0].events.isEmpty },
            describe: { resolve(sessions[$0], events: events[sessions[$0].events], file: file, given: description) })
        return Capture(
            source: file, device: chosen.description, events: Array(events[sessions[chosen.index].events]),
            assumptions: chosen.assumptions)
    }

    /// The one pass over the text: every session's header, and all events in order.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, file: String, into events: inout [InputEvent])
        throws(CaptureError) -> [Session]
    {
        var sessions: [Session] = []
        var joined: [UInt8] = []
        var lineStart = 0
        var lineNumber = 0
        let count = bytes.count
        while lineStart < count {
            lineNumber += 1
            let lineEnd = LineScanner.endOfLine(bytes, from: lineStart)
            var next = lineEnd + 1
            var s = LineScanner(bytes, from: lineStart, to: lineEnd)
            s.skipSpaces()
            if s.take(word: "Event:") {
                let event: InputEvent
                switch EvtestEventLine.parse(&s) {
                case .event(let e):
                    event = e
                case .malformed(let why):
                    throw CaptureError.malformed(why, s, from: lineStart, file: file, line: lineNumber)
                case .cut(let cut):
                    guard next < count else {
                        throw CaptureError.malformed(
                            "event line cut short at the end of the file: expected \(EvtestEventLine.shape)",
                            s, from: lineStart, file: file, line: lineNumber)
                    }
                    let nextEnd = LineScanner.endOfLine(bytes, from: next)
                    event = try rejoin(
                        cut, bytes, lineStart..<lineEnd, with: next..<nextEnd, scratch: &joined, file: file,
                        line: lineNumber)
                    next = nextEnd + 1
                    lineNumber += 1
                }
                if sessions.isEmpty { sessions.append(Session(events: events.count..<events.count)) }
                events.append(event)
                sessions[sessions.count - 1].events = sessions[sessions.count - 1].events.lowerBound..<events.count
            } else {
                var probe = s
                if let field = EvtestHeader.openingField(&probe), let last = sessions.last,
                    !last.events.isEmpty || last.header.fields.contains(field)
                {
                    sessions.append(Session(events: events.count..<events.count))
                }
                let outcome: HeaderLine
                if sessions.isEmpty {
                    var header = EvtestHeader()
                    outcome = header.take(&s)
                    if outcome == .taken { sessions.append(Session(header: header, events: 0..<0)) }
                } else {
                    outcome = sessions[sessions.count - 1].header.take(&s)
                }
                if case .malformed(let why) = outcome {
                    throw CaptureError.malformed(why, s, from: lineStart, file: file, line: lineNumber)
                }
            }
            lineStart = next
        }
        return sessions
    }

    /// The event a wrapped line and its continuation make, where the next line continues the cut.
    static func rejoin(
        _ cut: EvtestEventLine.Cut, _ bytes: UnsafeBufferPointer<UInt8>, _ line: Range<Int>,
        with continuation: Range<Int>, scratch: inout [UInt8], file: String, line number: Int
    ) throws(CaptureError) -> InputEvent {
        let s = LineScanner(bytes, from: line.lowerBound, to: line.upperBound)
        var n = LineScanner(bytes, from: continuation.lowerBound, to: continuation.upperBound)
        n.skipSpaces()
        guard cut.continues(n) else {
            throw CaptureError.malformed(
                "event line cut short (and the next line does not continue it): expected \(EvtestEventLine.shape)",
                s, from: line.lowerBound, file: file, line: number)
        }
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[line]))
        scratch.append(0x20)
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[n.position..<continuation.upperBound]))
        let parsed = scratch.withUnsafeBufferPointer { b -> EvtestEventLine.Parsed in
            var j = LineScanner(b, from: 0, to: b.count)
            j.skipSpaces()
            _ = j.take(word: "Event:")
            return EvtestEventLine.parse(&j)
        }
        guard case .event(let e) = parsed else {
            throw CaptureError.malformed(
                "event line wrapped onto the next line, but even rejoined it is not \(EvtestEventLine.shape)",
                s, from: line.lowerBound, file: file, line: number)
        }
        return e
    }

    /// A session's description: `given` (completed), else its header's, else one worked out from its events.
    static func resolve(_ session: Session, events: ArraySlice<InputEvent>, file: String, given: DeviceDescription?)
        -> (DeviceDescription, [String])
    {
        let name = session.header.name ?? AssumedDescription.name(tool: "evtest", file: file)
        if let d = given { return AssumedDescription.complete(d, from: events, name: name) }
        if var d = session.header.description {
            if d.name.isEmpty { d.name = name }
            return (d, [])
        }
        return AssumedDescription.infer(
            from: events, name: name, identity: session.header.identity ?? DeviceIdentity())
    }
}
