import PressureCommandLine
import PressureCore

/// Reads a capture file in whichever format it is (``CaptureReader``: `libinput record` YAML, evemu text,
/// evtest output, `getevent -lt`), with its description from `descriptionPath` (an evemu description) when
/// the file has none of its own.
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
            return try CaptureReader.read(bytes, file: path, description: description, deviceIndex: deviceIndex)
        } catch { throw .capture(error) }
    }

    /// Says on stderr, once each, what the reader assumed about a capture's device (a header-less log's axis
    /// ranges, its protocol), each line after `prefix`: `<4>pressurectl replay: FILE: no device description…`.
    public static func warnAssumptions(_ capture: Capture, prefix: String) {
        for a in capture.assumptions { Log.warning("\(prefix)\(capture.source): \(a)") }
    }
}
