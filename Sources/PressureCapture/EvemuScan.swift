import PressureCore

/// The evemu reader's pass over the text, a block of lines at a time (``CaptureLineScan``): header lines
/// to ``header``, events to the sink. A header line may come anywhere, even after events.
struct EvemuScan: CaptureLineScan {
    let file: String
    var header = HeaderBuilder()
    private(set) var lineNumber = 0
    private(set) var eventCount = 0
    /// The first header line after an event, if any: the description read before the events is then
    /// not the whole of it.
    private(set) var lateHeaderLine: Int?

    init(file: String) {
        self.file = file
    }

    func finish() throws(CaptureError) {}

    mutating func take<Sink: CaptureEventSink>(_ bytes: UnsafeBufferPointer<UInt8>, into sink: inout Sink)
        throws(CaptureError)
    {
        var lineStart = 0
        let count = bytes.count
        while lineStart < count {
            lineNumber += 1
            // The bulk of a capture: well-formed `E:` lines take the fast path; anything unusual falls
            // through to the general one, which also words the error.
            if lineStart + 2 < count, bytes[lineStart] == UInt8(ascii: "E"), bytes[lineStart + 1] == UInt8(ascii: ":"),
                let (event, next) = EvemuEventLine.parse(bytes, from: lineStart + 2)
            {
                eventCount &+= 1
                sink.take(event, device: 0)
                lineStart = next
                continue
            }
            let lineEnd = LineScanner.endOfLine(bytes, from: lineStart)
            var s = LineScanner(bytes, from: lineStart, to: lineEnd)
            s.skipSpaces()
            if let prefix = s.current, s.position + 1 < lineEnd, bytes[s.position + 1] == UInt8(ascii: ":") {
                s.position += 2
                if prefix == UInt8(ascii: "E") {
                    guard let event = EvemuReader.parseEvent(&s) else {
                        throw CaptureError(file: file, line: lineNumber, reason: .malformedLine(
                            "expected an event `E: <seconds>.<micros> <type hex> <code hex> <value>`, got `\(s.excerpt(from: lineStart))`"))
                    }
                    eventCount &+= 1
                    sink.take(event, device: 0)
                } else if let why = header.take(prefix: prefix, &s) {
                    throw CaptureError(file: file, line: lineNumber, reason: .malformedLine(
                        "\(why) in `\(s.excerpt(from: lineStart))`"))
                } else if eventCount > 0, lateHeaderLine == nil {
                    lateHeaderLine = lineNumber
                }
            } else if s.take(UInt8(ascii: "#")) {
                if let version = EvemuReader.versionComment(&s), !EvemuReader.supportedVersions.contains(version) {
                    throw CaptureError(file: file, line: lineNumber, reason: .unsupportedVersion("EVEMU \(version)"))
                }
            } else if !s.atEndOrComment() {
                throw CaptureError(file: file, line: lineNumber, reason: .malformedLine(
                    "not an evemu line (expected N:, I:, P:, B:, A:, L:, S:, E: or #): `\(s.excerpt(from: lineStart))`"))
            }
            lineStart = lineEnd + 1
        }
    }
}
