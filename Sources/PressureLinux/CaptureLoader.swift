import PressureCore

/// Why a capture could not be loaded: the file system, or the file's contents.
public enum CaptureLoadError: Error, CustomStringConvertible {
    case system(SystemError)
    case capture(CaptureError)

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .capture(let e): return e.description
        }
    }
}

/// Reads a capture file in whichever format it is: a `libinput record` YAML file, or evemu text (with its
/// description from `descriptionPath` when the file has none of its own).
public enum CaptureLoader {
    public static func load(path: String, descriptionPath: String? = nil, deviceIndex: Int? = nil)
        throws(CaptureLoadError) -> Capture
    {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path) } catch { throw .system(error) }
        var description: DeviceDescription? = nil
        if let descPath = descriptionPath {
            let descBytes: [UInt8]
            do { descBytes = try FileBytes.read(descPath) } catch { throw .system(error) }
            do {
                description = try descBytes.withBytes { (b) throws(CaptureError) in
                    try EvemuReader.readDescription(b, file: descPath)
                }
            } catch { throw .capture(error) }
        }
        do {
            return try bytes.withBytes { (b) throws(CaptureError) -> Capture in
                if LibinputRecordReader.looksLikeRecord(b) {
                    return try LibinputRecordReader.read(b, file: path, deviceIndex: deviceIndex)
                }
                guard EvemuReader.looksLikeEvemu(b) else {
                    throw CaptureError(file: path, line: 0, reason: .unknownFormat)
                }
                if let index = deviceIndex, index != 0 {
                    throw CaptureError(file: path, line: 0, reason: .noSuchDevice(index: index, count: 1))
                }
                return try EvemuReader.read(b, file: path, description: description)
            }
        } catch { throw .capture(error) }
    }
}
