import PressureCore

/// Reads a capture in whichever text format it is, told apart by its first lines: a `libinput record`
/// YAML file, evemu text, evtest output, or an Android `getevent -lt`/`-t` log. What the tools and the
/// daemon load goes through here.
public enum CaptureReader {
    /// The format the bytes look like, or nil for none of them. The two logs may begin with any text (a
    /// mail, a shell prompt): the first line that is either's decides, so a big log is not read through
    /// to tell it apart.
    public static func format(of bytes: UnsafeBufferPointer<UInt8>) -> CaptureFormat? {
        try? format(of: CaptureLines(file: "", memory: bytes))
    }

    /// ``format(of:)-(UnsafeBufferPointer<UInt8>)`` for lines read from the start of their file, which is
    /// read only as far as it takes to tell (each format's test starts again from the beginning).
    public static func format(of lines: CaptureLines) throws(CaptureError) -> CaptureFormat? {
        try lines.restart()
        let record = LibinputRecordReader.Scanner(lines)
        if let failure = record.failure { throw failure }
        if LibinputRecordReader.looksLikeRecord(record) { return .libinputRecord }
        try lines.restart()
        while let block = try lines.nextBlock() {
            guard let evemu = EvemuReader.verdict(block) else { continue }
            if evemu { return .evemu }
            break
        }
        try lines.restart()
        while let block = try lines.nextBlock() {
            var found: CaptureFormat? = nil
            _ = LineScanner.anyLine(of: block) { s in
                var copy = s
                if EvtestReader.isEvtest(&copy) {
                    found = .evtest
                } else if GeteventReader.isGetevent(&s) {
                    found = .getevent
                }
                return found != nil
            }
            if let found { return found }
        }
        return nil
    }

    /// Reads device `deviceIndex` of the file (nil: the file's first touch device). `description` (from
    /// `--desc`) stands in for a description the file lacks, and replaces one it has, for the evemu, evtest
    /// and getevent formats; a `libinput record` file always describes its devices itself.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, description: DeviceDescription? = nil,
        deviceIndex: Int? = nil
    ) throws(CaptureError) -> Capture {
        try open(CaptureLines(file: file, memory: bytes), description: description, deviceIndex: deviceIndex)
            .readAll()
    }

    /// ``read(_:file:description:deviceIndex:)-(UnsafeBufferPointer<UInt8>,_,_,_)`` for an array.
    public static func read(
        _ bytes: [UInt8], file: String, description: DeviceDescription? = nil, deviceIndex: Int? = nil
    ) throws(CaptureError) -> Capture {
        let result: Result<Capture, CaptureError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(CaptureError) {
                return .success(try read(buffer, file: file, description: description, deviceIndex: deviceIndex))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The capture in `lines` as a stream (see ``CaptureStream``): its first pass done, its events to be
    /// read. The same choices as ``read(_:file:description:deviceIndex:)-(UnsafeBufferPointer<UInt8>,_,_,_)``.
    public static func open(
        _ lines: CaptureLines, description: DeviceDescription? = nil, deviceIndex: Int? = nil,
        firstPass: CaptureStream.FirstPass = .wholeFile
    ) throws(CaptureError) -> CaptureStream {
        guard let format = try format(of: lines) else {
            throw CaptureError(file: lines.file, line: 0, reason: .unknownFormat)
        }
        if format == .evemu, let index = deviceIndex, index != 0 {
            throw CaptureError(file: lines.file, line: 0, reason: .noSuchDevice(index: index, count: 1))
        }
        return try CaptureStream.open(
            lines, format: format, description: description, deviceIndex: deviceIndex, firstPass: firstPass)
    }
}
