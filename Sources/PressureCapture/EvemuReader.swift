import PressureCore

/// Reads evemu recordings, versions 1.1 to 1.3: a header of `N: I: P: B: A: L: S:` lines describing the
/// device, then `E: seconds.micros type code value` lines; `#` comments anywhere. A header-less `.events`
/// file takes its description from a separate file (`--desc`).
public enum EvemuReader {
    /// The versions this reader knows (`# EVEMU x.y`); a file without the comment is read as one of them.
    public static let supportedVersions = ["1.1", "1.2", "1.3"]

    /// Whether the first meaningful line of `bytes` (whole lines) begins like evemu's; nil when every line
    /// is blank or a comment, and the next block decides.
    static func verdict(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
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
        return nil
    }

    /// Reads a recording. `description`, when given (from `--desc`), replaces any header in the file.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, description: DeviceDescription? = nil
    ) throws(CaptureError) -> Capture {
        try CaptureStream.open(
            CaptureLines(file: file, memory: bytes), format: .evemu, description: description, deviceIndex: nil
        ).readAll()
    }

    /// Reads only a description (a `.desc` or `.prop` file); `E:` lines in it are checked and ignored.
    public static func readDescription(_ bytes: UnsafeBufferPointer<UInt8>, file: String)
        throws(CaptureError) -> DeviceDescription
    {
        var scan = EvemuScan(file: file)
        var ignored = IgnoredEvents()
        try scan.run(CaptureLines(file: file, memory: bytes), into: &ignored)
        guard let d = scan.header.description else {
            throw CaptureError(file: file, line: 0, reason: .missingDescription)
        }
        return d
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
