/// Reads evemu recordings, versions 1.1 to 1.3: a header of `N: I: P: B: A: L: S:` lines describing the
/// device, then `E: seconds.micros type code value` lines; `#` comments anywhere. A header-less `.events`
/// file takes its description from a separate file (`--desc`).
public enum EvemuReader {
    /// The versions this reader knows (`# EVEMU x.y`); a file without the comment is read as one of them.
    public static let supportedVersions = ["1.1", "1.2", "1.3"]

    /// True when the bytes look like evemu text (the first meaningful line is a known prefix).
    public static func looksLikeEvemu(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if LineScanner.isSpace(b) || b == 0x0a {
                i += 1
                continue
            }
            if b == UInt8(ascii: "#") {
                while i < bytes.count, bytes[i] != 0x0a { i += 1 }
                continue
            }
            guard i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: ":") else { return false }
            return "NIPBALSE".utf8.contains(b)
        }
        return false
    }

    /// Reads a recording. `description`, when given (from `--desc`), replaces any header in the file.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, description: DeviceDescription? = nil
    ) throws(CaptureError) -> Capture {
        var header = HeaderBuilder()
        var events: [InputEvent] = []
        events.reserveCapacity(bytes.count / 28)
        try scan(bytes, file: file, header: &header) { (event: InputEvent) in events.append(event) }
        guard let device = description ?? header.description else {
            throw CaptureError(file: file, line: 0, reason: .missingDescription)
        }
        return Capture(source: file, device: device, events: events)
    }

    /// Reads only a description (a `.desc` or `.prop` file); `E:` lines in it are checked and ignored.
    public static func readDescription(_ bytes: UnsafeBufferPointer<UInt8>, file: String)
        throws(CaptureError) -> DeviceDescription
    {
        var header = HeaderBuilder()
        try scan(bytes, file: file, header: &header) { (_: InputEvent) in }
        guard let d = header.description else {
            throw CaptureError(file: file, line: 0, reason: .missingDescription)
        }
        return d
    }

    /// The one pass over the text: header lines go to `header`, events to `emit`.
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, header: inout HeaderBuilder,
        emit: (InputEvent) -> Void
    ) throws(CaptureError) {
        var lineStart = 0
        var lineNumber = 0
        let count = bytes.count
        while lineStart < count {
            lineNumber += 1
            // The bulk of a capture: well-formed `E:` lines take the fast path; anything unusual falls
            // through to the general one, which also words the error.
            if lineStart + 2 < count, bytes[lineStart] == UInt8(ascii: "E"), bytes[lineStart + 1] == UInt8(ascii: ":"),
                let (event, next) = EvemuEventLine.parse(bytes, from: lineStart + 2)
            {
                emit(event)
                lineStart = next
                continue
            }
            var lineEnd = lineStart
            while lineEnd < count, bytes[lineEnd] != 0x0a { lineEnd += 1 }
            var s = LineScanner(bytes, from: lineStart, to: lineEnd)
            s.skipSpaces()
            if let prefix = s.current, s.position + 1 < lineEnd, bytes[s.position + 1] == UInt8(ascii: ":") {
                s.position += 2
                if prefix == UInt8(ascii: "E") {
                    guard let event = parseEvent(&s) else {
                        throw CaptureError(file: file, line: lineNumber, reason: .malformedLine(
                            "expected an event `E: <seconds>.<micros> <type hex> <code hex> <value>`, got `\(s.excerpt(from: lineStart))`"))
                    }
                    emit(event)
                } else if let why = header.take(prefix: prefix, &s) {
                    throw CaptureError(file: file, line: lineNumber, reason: .malformedLine(
                        "\(why) in `\(s.excerpt(from: lineStart))`"))
                }
            } else if s.take(UInt8(ascii: "#")) {
                if let version = versionComment(&s), !supportedVersions.contains(version) {
                    throw CaptureError(file: file, line: lineNumber, reason: .unsupportedVersion("EVEMU \(version)"))
                }
            } else if !s.atEndOrComment() {
                throw CaptureError(file: file, line: lineNumber, reason: .malformedLine(
                    "not an evemu line (expected N:, I:, P:, B:, A:, L:, S:, E: or #): `\(s.excerpt(from: lineStart))`"))
            }
            lineStart = lineEnd + 1
        }
    }

    @inline(__always)
    static func parseEvent(_ s: inout LineScanner) -> InputEvent? {
        guard let time = s.timestamp(),
            let type = s.hex(limit: 0xffff),
            let code = s.hex(limit: 0xffff),
            let value = s.decimal(in: Int64(Int32.min)...Int64(Int32.max)),
            s.atEndOrComment()
        else { return nil }
        return InputEvent(time: time, type: UInt16(type), code: UInt16(code), value: Int32(value))
    }

    /// `# EVEMU 1.2` → "1.2"; any other comment → nil.
    static func versionComment(_ s: inout LineScanner) -> String? {
        s.skipSpaces()
        for b in "EVEMU".utf8 where !s.take(b) { return nil }
        let v = s.rest()
        return v.isEmpty ? "(none)" : v
    }
}
