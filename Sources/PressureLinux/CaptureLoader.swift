import PressureCapture
import PressureCommandLine
import PressureCore

/// Opens a capture file in whichever format it is (``CaptureReader``: `libinput record` YAML, evemu text,
/// evtest output, `getevent -lt`), with its description from `descriptionPath` (an evemu description) when
/// the file has none of its own. The file is streamed (``CaptureStream``): read in chunks, twice, never
/// whole, so a capture of any length replays in the same memory.
public enum CaptureLoader {
    /// The capture's first pass done (every line checked, or only an evemu header: `firstPass`), the
    /// device chosen, its events to be read.
    public static func open(
        path: String, descriptionPath: String? = nil, deviceIndex: Int? = nil,
        chunkSize: Int = CaptureLines.defaultChunkSize, firstPass: CaptureStream.FirstPass = .wholeFile
    ) throws(CaptureLoadError) -> CaptureStream {
        let file: CaptureFile
        do { file = try CaptureFile(path: path) } catch { throw .system(error) }
        let description = try loadDescription(descriptionPath)
        do {
            return try CaptureReader.open(
                CaptureLines(file: path, source: file, chunkSize: chunkSize), description: description,
                deviceIndex: deviceIndex, firstPass: firstPass)
        } catch { throw .capture(error) }
    }

    /// The whole capture in memory, for what needs every event at once (tests, the core benchmark).
    public static func load(path: String, descriptionPath: String? = nil, deviceIndex: Int? = nil)
        throws(CaptureLoadError) -> Capture
    {
        let stream = try open(path: path, descriptionPath: descriptionPath, deviceIndex: deviceIndex)
        do { return try stream.readAll() } catch { throw .capture(error) }
    }

    /// An evemu description file (`--desc`), read whole: it is a header.
    static func loadDescription(_ path: String?) throws(CaptureLoadError) -> DeviceDescription? {
        guard let path else { return nil }
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path) } catch { throw .system(error) }
        do {
            return try bytes.withBytes { (b) throws(CaptureError) in try EvemuReader.readDescription(b, file: path) }
        } catch { throw .capture(error) }
    }

    /// Says on stderr, once each, what the reader assumed about a capture's device (a header-less log's axis
    /// ranges, its protocol), each line after `prefix`: `<4>pressurectl replay: FILE: no device description…`.
    public static func warnAssumptions(_ capture: CaptureStream, prefix: String) {
        for a in capture.assumptions { Log.warning("\(prefix)\(capture.source): \(a)") }
    }
}
