import PressureCore

/// Where a written capture's clock starts.
public enum CaptureTimeBase: Sendable {
    /// Event times as they are (a capture converted from another file keeps its times exactly).
    case asRecorded
    /// The first event at 0.000000 and the rest relative to it, as `evemu-record` and `libinput record`
    /// write a live device (its kernel times are seconds since boot, meaningless elsewhere).
    case firstEventAtZero
}

/// Applies a ``CaptureTimeBase`` to a stream of event times.
struct CaptureClock: Sendable {
    let base: CaptureTimeBase
    private var origin: Int64?

    init(_ base: CaptureTimeBase) { self.base = base }

    /// The time to write for `t`. Never negative: both formats write unsigned seconds, and an event
    /// before the first one (a clock that stepped back) is written at the start instead.
    mutating func time(_ t: Timestamp) -> Timestamp {
        switch base {
        case .asRecorded:
            return Timestamp(microseconds: max(0, t.microseconds))
        case .firstEventAtZero:
            let o = origin ?? t.microseconds
            origin = o
            return Timestamp(microseconds: max(0, t.microseconds &- o))
        }
    }
}

/// One writer for either format, streaming: ``header(to:)`` once, ``append(_:to:)`` for each event as it
/// arrives, ``finish(to:)`` at the end. `pressurectl record` writes a live device through exactly this,
/// and ``encode(_:format:timeBase:)`` writes a whole capture through it too, so the tests of the one
/// cover the other.
public struct CaptureWriter: Sendable {
    enum Encoder: Sendable {
        case evemu(EvemuWriter)
        case libinput(LibinputRecordWriter)
    }

    var encoder: Encoder

    /// - Parameters:
    ///   - node: the device node, for the libinput format's `node:` (evemu has no place for it).
    ///   - udevProperties: `KEY=value` lines for the libinput format's `udev:` section.
    ///   - system: `key: value` pairs for the libinput format's `system:` section (kernel, dmi).
    public init(
        format: RecordingFormat, description: DeviceDescription, timeBase: CaptureTimeBase, node: String = "",
        udevProperties: [String] = [], system: [(key: String, value: String)] = []
    ) {
        switch format {
        case .evemu:
            encoder = .evemu(EvemuWriter(description: description, timeBase: timeBase))
        case .libinput:
            encoder = .libinput(LibinputRecordWriter(
                description: description, timeBase: timeBase, node: node, udevProperties: udevProperties,
                system: system))
        }
    }

    public mutating func header(to out: inout [UInt8]) {
        switch encoder {
        case .evemu(let w): w.header(to: &out)
        case .libinput(let w): w.header(to: &out)
        }
    }

    public mutating func append(_ event: InputEvent, to out: inout [UInt8]) {
        switch encoder {
        case .evemu(var w):
            w.append(event, to: &out)
            encoder = .evemu(w)
        case .libinput(var w):
            w.append(event, to: &out)
            encoder = .libinput(w)
        }
    }

    /// Ends the file. Both formats are complete after any event, so this writes nothing today; callers
    /// still call it so a format that needs a trailer can have one.
    public mutating func finish(to out: inout [UInt8]) {}

    /// A whole capture as file bytes.
    public static func encode(
        _ capture: Capture, format: RecordingFormat, timeBase: CaptureTimeBase = .asRecorded, node: String = ""
    ) -> [UInt8] {
        var writer = CaptureWriter(format: format, description: capture.device, timeBase: timeBase, node: node)
        var out: [UInt8] = []
        out.reserveCapacity(capture.events.count * 64 + 4096)
        writer.header(to: &out)
        for e in capture.events { writer.append(e, to: &out) }
        writer.finish(to: &out)
        return out
    }
}
