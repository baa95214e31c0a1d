import PressureCore

/// The evtest reader's pass over the text, a block of lines at a time (``CaptureLineScan``): every
/// session's header, and every event, to the sink with its session's index.
struct EvtestScan: CaptureLogScan {
    let file: String
    private(set) var sessions: [EvtestReader.Session] = []
    private(set) var lineNumber = 0
    /// An event line cut where a mail client may have wrapped it, waiting for the line that continues it
    /// (which may be in the next block): the cut, the line's bytes, its number.
    private var pending: Pending?
    private var joined: [UInt8] = []
    private typealias Pending = (cut: EvtestEventLine.Cut, line: [UInt8], number: Int)

    init(file: String) {
        self.file = file
    }

    var deviceCount: Int { sessions.count }

    func describe(_ index: Int, evidence: AssumedDescription.Evidence, given: DeviceDescription?)
        -> (DeviceDescription, [String])
    {
        EvtestReader.resolve(sessions[index], evidence: evidence, file: file, given: given)
    }

    mutating func finish() throws(CaptureError) {
        guard let p = pending else { return }
        pending = nil
        throw error("event line cut short at the end of the file: expected \(EvtestEventLine.shape)", p)
    }

    /// The error for a cut line, which shows it.
    private func error(_ why: String, _ p: Pending) -> CaptureError {
        p.line.withUnsafeBufferPointer { b in
            CaptureError.malformed(why, LineScanner(b, from: 0, to: b.count), from: 0, file: file, line: p.number)
        }
    }

    mutating func take<Sink: CaptureEventSink>(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout Sink)
        throws(CaptureError)
    {
        var lineStart = 0
        let count = bytes.count
        while lineStart < count {
            lineNumber += 1
            let lineEnd = LineScanner.endOfLine(bytes, from: lineStart)
            defer { lineStart = lineEnd + 1 }
            var s = LineScanner(bytes, from: lineStart, to: lineEnd)
            if let p = pending {
                pending = nil
                emit(try rejoin(p, with: s), into: &sink)
                continue
            }
            s.skipSpaces()
            if s.take(word: "Event:") {
                switch EvtestEventLine.parse(&s) {
                case .event(let e):
                    emit(e, into: &sink)
                case .malformed(let why):
                    throw CaptureError.malformed(why, s, from: lineStart, file: file, line: lineNumber)
                case .cut(let cut):
                    pending = (cut, Array(UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd])), lineNumber)
                }
            } else {
                var probe = s
                if let field = EvtestHeader.openingField(&probe), let last = sessions.last,
                    last.eventCount > 0 || last.header.fields.contains(field)
                {
                    sessions.append(EvtestReader.Session())
                }
                let outcome: HeaderLine
                if sessions.isEmpty {
                    var header = EvtestHeader()
                    outcome = header.take(&s)
                    if outcome == .taken { sessions.append(EvtestReader.Session(header: header)) }
                } else {
                    outcome = sessions[sessions.count - 1].header.take(&s)
                }
                if case .malformed(let why) = outcome {
                    throw CaptureError.malformed(why, s, from: lineStart, file: file, line: lineNumber)
                }
            }
        }
    }

    /// An event into the last session (the first, where none has begun).
    @inline(__always)
    private mutating func emit<Sink: CaptureEventSink>(_ event: InputEvent, into sink: inout Sink) {
        if sessions.isEmpty { sessions.append(EvtestReader.Session()) }
        sessions[sessions.count - 1].eventCount += 1
        sink.take(event, device: sessions.count - 1)
    }

    /// The event a wrapped line and its continuation (`next`, at the next line's start) make, where the
    /// next line continues the cut.
    private mutating func rejoin(
        _ p: Pending, with next: LineScanner
    ) throws(CaptureError) -> InputEvent {
        var n = next
        n.skipSpaces()
        guard p.cut.continues(n) else {
            throw error(
                "event line cut short (and the next line does not continue it): expected \(EvtestEventLine.shape)", p)
        }
        joined.removeAll(keepingCapacity: true)
        joined.append(contentsOf: p.line)
        joined.append(0x20)
        joined.append(contentsOf: UnsafeBufferPointer(rebasing: n.bytes[n.position..<n.end]))
        let parsed = joined.withUnsafeBufferPointer { b -> EvtestEventLine.Parsed in
            var j = LineScanner(b, from: 0, to: b.count)
            j.skipSpaces()
            _ = j.take(word: "Event:")
            return EvtestEventLine.parse(&j)
        }
        guard case .event(let e) = parsed else {
            throw error(
                "event line wrapped onto the next line, but even rejoined it is not \(EvtestEventLine.shape)", p)
        }
        return e
    }
}
