/// Reads a capture in whichever text format it is, told apart by its first lines: a `libinput record`
/// YAML file, evemu text, evtest output, or an Android `getevent -lt`/`-t` log. What the tools and the
/// daemon load goes through here.
public enum CaptureReader {
    /// The formats, in the order they are tried.
    public enum Format: String, Sendable {
        case libinputRecord = "libinput record"
        case evemu
        case evtest
        case getevent
    }

    /// The format the bytes look like, or nil for none of them. The two logs may begin with any text (a
    /// mail, a shell prompt): the first line that is either's decides, so a big log is not read through
    /// to tell it apart.
    public static func format(of bytes: UnsafeBufferPointer<UInt8>) -> Format? {
        if LibinputRecordReader.looksLikeRecord(bytes) { return .libinputRecord }
        if EvemuReader.looksLikeEvemu(bytes) { return .evemu }
        var found: Format? = nil
        _ = LineScanner.anyLine(of: bytes) { s in
            var copy = s
            if EvtestReader.isEvtest(&copy) {
                found = .evtest
            } else if GeteventReader.isGetevent(&s) {
                found = .getevent
            }
            return found != nil
        }
        return found
    }

    /// Reads device `deviceIndex` of the file (nil: the file's first touch device). `description` (from
    /// `--desc`) stands in for a description the file lacks, and replaces one it has, for the evemu, evtest
    /// and getevent formats; a `libinput record` file always describes its devices itself.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, description: DeviceDescription? = nil,
        deviceIndex: Int? = nil
    ) throws(CaptureError) -> Capture {
        switch format(of: bytes) {
        case .libinputRecord:
            return try LibinputRecordReader.read(bytes, file: file, deviceIndex: deviceIndex)
        case .evemu:
            if let index = deviceIndex, index != 0 {
                throw CaptureError(file: file, line: 0, reason: .noSuchDevice(index: index, count: 1))
            }
            return try EvemuReader.read(bytes, file: file, description: description)
        case .evtest:
            return try EvtestReader.read(bytes, file: file, description: description, deviceIndex: deviceIndex)
        case .getevent:
            return try GeteventReader.read(bytes, file: file, description: description, deviceIndex: deviceIndex)
        case nil:
            throw CaptureError(file: file, line: 0, reason: .unknownFormat)
        }
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
}
