import PressureCore

/// Reads Android `getevent -lt` and `getevent -t` logs: event lines (``GeteventLine``) and the device
/// blocks printed before them (``GeteventHeader``).
/// - Lines that name a node are grouped by node; devices are numbered by first appearance (block or
///   event) and chosen with `deviceIndex`, by default the first touch device with events. Lines without
///   a node belong to the one device a block names, else to a device of their own.
/// - A device is described by its block's axes, else by `description` (`--desc`), else by its events,
///   named after the file (``AssumedDescription/infer(from:name:identity:)``; ``Capture/assumptions``).
/// - Other text is skipped; a malformed line that starts with `[`, or an event line without a time stamp,
///   is an error naming its line. Times are kept as given.
public enum GeteventReader {
    /// Whether the line (`s` at its start) opens a device block or starts like an event line.
    static func isGetevent(_ s: inout LineScanner) -> Bool {
        if s.take(word: "add device ") { return true }
        guard s.take(UInt8(ascii: "[")) else { return false }
        s.skipSpaces()
        guard let b = s.current else { return false }
        return b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
    }

    /// One device of the log.
    struct Device {
        var node: String
        var header: GeteventHeader?
        var eventCount = 0
        /// Events left out because a name in them is not in the kernel table, and those names.
        var unknownEvents = 0
        var unknownNames: [String] = []
    }

    /// Reads the log and returns device `deviceIndex` (see the type's documentation).
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, description: DeviceDescription? = nil,
        deviceIndex: Int? = nil
    ) throws(CaptureError) -> Capture {
        try CaptureStream.open(
            CaptureLines(file: file, memory: bytes), format: .getevent, description: description,
            deviceIndex: deviceIndex
        ).readAll()
    }

    /// `/dev/input/event2: EV_ABS …`, `EV_ABS …` or `0003 0035 000001ad`: getevent without `-t`.
    static func looksLikeUntimedEvent(_ s: LineScanner) -> Bool {
        var s = s
        if s.take(word: "/dev/") || s.take(word: "EV_") { return true }
        let words = (s.word(), s.word(), s.word())
        guard s.atEnd, words.0.count == 4, words.1.count == 4, words.2.count == 8 else { return false }
        for w in [words.0, words.1, words.2] {
            var h = LineScanner(s.bytes, from: w.lowerBound, to: w.upperBound)
            guard h.hex(limit: 0xffff_ffff) != nil, h.atEnd else { return false }
        }
        return true
    }

    /// A device's description and what was assumed for it.
    static func resolve(
        _ d: Device, evidence: AssumedDescription.Evidence, file: String, several: Bool, given: DeviceDescription?
    ) -> (DeviceDescription, [String]) {
        var fallback = AssumedDescription.name(tool: "getevent", file: file)
        if several, !d.node.isEmpty { fallback += " (\(d.node))" }
        let name = d.header?.name.flatMap { $0.isEmpty ? nil : $0 } ?? fallback
        var result: (DeviceDescription, [String])
        if let g = given {
            result = AssumedDescription.complete(g, from: evidence, name: name)
        } else if var h = d.header?.description {
            h.name = name
            result = (h, [])
        } else {
            result = AssumedDescription.infer(
                from: evidence, name: name, identity: d.header?.identity ?? DeviceIdentity())
        }
        let unknown = (d.header?.unknownNames ?? []) + d.unknownNames
        if !unknown.isEmpty {
            result.1.append(
                "names the kernel table here lacks: \(unknown.joined(separator: ", ")); \(d.unknownEvents) event(s) with them left out")
        }
        return result
    }
}
