import PressureCore

/// Reads `libinput record` YAML (file format version 1) into a ``Capture`` of one device.
///
/// This is a purpose-built line-and-indentation scanner for the subset of YAML that
/// `libinput record` writes, not a general YAML parser:
///
/// ```
/// version: 1
/// ndevices: 1
/// libinput: {…}                    # skipped, like every key this reader does not know
/// devices:
/// - node: /dev/input/event5
///   evdev:
///     name: "ELAN Touchscreen"
///     id: [24, 1267, 673, 256]      # bus, vendor, product, version
///     codes:
///       3: [0, 1, 47, 53, 54, 57, 58]     # type: [code, …]
///     absinfo:
///       58: [0, 255, 0, 0, 0]       # code: [min, max, fuzz, flat, resolution]
///     properties: [1]
///   events:
///   - evdev:
///     - [  0,  10123,   3,  58,    40] # sec, usec, type, code, value
///     libinput:                     # skipped
///     - {time: 0.010123, type: TOUCH_DOWN, …}
/// ```
///
/// Rules: a key's value is the block of lines indented deeper than the key, plus, for a key with no inline
/// value, a `- ` sequence at the key's own indentation (as libinput writes `events:` and `evdev:`). Unknown keys
/// are skipped with their whole block. `#` starts a comment at the start of a line or after whitespace, outside
/// double quotes. `ndevices` is optional; when present it must match. Only version 1 is accepted.
///
/// Everything works on bytes, a line at a time (``CaptureLines``). Event lines, the bulk of any capture, are
/// parsed by a byte loop with no allocation. A first pass checks every device's lines and notes where the
/// chosen device's `events:` blocks begin; the second reads only those (``LibinputRecordPlayback``).
/// Errors carry the file name and the 1-based line (0 when the error is about the whole file). A line that
/// is cut off at the very end of the file (no newline, structure unfinished) is reported as truncated.
public enum LibinputRecordReader {
    // The syntax and the structure of the files are types of their own; by their short names here, for
    // the reader, the format detection and the streaming second pass.
    typealias Scanner = LibinputRecordSyntax.Scanner
    typealias Byte = LibinputRecordSyntax.Byte
    typealias Parser = LibinputRecordStructure.Parser
    typealias EventsStart = LibinputRecordStructure.EventsStart
    typealias EventsWalk = LibinputRecordStructure.EventsWalk

    /// True when the bytes look like a libinput record: the first line that is neither blank nor a comment
    /// is `version: N` at column 0. The version itself is not checked here (``read(_:file:deviceIndex:)``
    /// reports an unsupported one).
    public static func looksLikeRecord(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        looksLikeRecord(Scanner(CaptureLines(file: "", memory: bytes)))
    }

    /// ``looksLikeRecord(_:)-(UnsafeBufferPointer<UInt8>)`` for a scanner at the file's start.
    static func looksLikeRecord(_ scanner: Scanner) -> Bool {
        guard let line = scanner.current, line.indent == 0, let kv = scanner.keyValue(line),
            scanner.key(kv, is: "version"), kv.valueStart < kv.valueEnd
        else { return false }
        let b = scanner.bytes[kv.valueStart]
        return (b >= Byte.zero && b <= Byte.nine) || b == Byte.quote
    }

    /// ``looksLikeRecord(_:)-(UnsafeBufferPointer<UInt8>)`` for an array.
    public static func looksLikeRecord(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { looksLikeRecord($0) }
    }

    /// Parses device `deviceIndex` (0-based) or, when it is nil, the first touch device: one that declares
    /// `ABS_MT_POSITION_X`, or `ABS_X` together with `BTN_TOUCH`. `file` is used only in errors and as the
    /// capture's ``Capture/source``.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, deviceIndex: Int?
    ) throws(CaptureError) -> Capture {
        try CaptureStream.open(
            CaptureLines(file: file, memory: bytes), format: .libinputRecord, description: nil,
            deviceIndex: deviceIndex
        ).readAll()
    }

    /// ``read(_:file:deviceIndex:)-(UnsafeBufferPointer<UInt8>,_,_)`` for an array.
    public static func read(_ bytes: [UInt8], file: String, deviceIndex: Int?) throws(CaptureError) -> Capture {
        let result: Result<Capture, CaptureError> = bytes.withUnsafeBufferPointer { buffer in
            do throws(CaptureError) {
                return .success(try read(buffer, file: file, deviceIndex: deviceIndex))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Whether a device description is what the default device choice looks for.
    static func isTouchDevice(_ device: DeviceDescription) -> Bool {
        device.has(type: EventType.abs, code: AbsCode.mtPositionX)
            || (device.has(type: EventType.abs, code: AbsCode.x)
                && device.has(type: EventType.key, code: KeyCode.btnTouch))
    }
}
