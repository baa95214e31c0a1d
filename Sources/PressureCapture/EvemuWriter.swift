import PressureCore

/// Writes evemu 1.3 text as `evemu-record` does, so `evemu-play` and `evemu-device` take it and
/// ``EvemuReader`` reads back exactly what was written. The header, in the order evemu's parser insists on:
///
/// ```
/// # EVEMU 1.3
/// # Input device name: "FlatFrog FlatFrog Multitouch 3200"     (an evtest-like description, comments)
/// N: FlatFrog FlatFrog Multitouch 3200
/// I: 0003 25b5 0002 0000                                       bus vendor product version, %04x
/// P: 02 00 00 00 00 00 00 00                                   property bits, 8 bytes a line
/// B: 00 0b 00 00 00 00 00 00 00                                EV_SYN, always; then each type's code bits
/// A: 35 0 11174 5 0 16                                         code min max fuzz flat resolution
/// E: 0.000000 0003 0039 0000	# EV_ABS / ABS_MT_TRACKING_ID   0
/// ```
///
/// As in evemu, each type libevdev knows gets its full mask, even empty (EV_KEY twelve `B:` lines, EV_FF
/// two, others one); other codes are still written so nothing is lost, except codes beyond
/// ``maximumCode``, which the format cannot express.
public struct EvemuWriter: Sendable {
    public static let version = "1.3"

    /// The largest code of each event type, as libevdev's `libevdev_event_type_get_max` says (EV_SYN is
    /// written as a fixed line, so it is not here). Today's libevdev knows EV_REP; recordings made with an
    /// older one have no `B: 14` line, which evemu reads the same (an empty mask).
    static let typeMaxima: [(type: UInt16, maximum: Int)] = [
        (0x01, 0x2ff), (0x02, 0x0f), (0x03, 0x3f), (0x04, 0x07), (0x05, 0x10), (0x11, 0x0f), (0x12, 0x07),
        (0x14, 0x01), (0x15, 0x7f),
    ]

    /// Codes above this do not fit the masks ``EvemuReader`` accepts (128 bytes a type).
    public static let maximumCode = 1023

    public let description: DeviceDescription
    var clock: CaptureClock
    var comment = EventComment()

    public init(description: DeviceDescription, timeBase: CaptureTimeBase) {
        self.description = description
        clock = CaptureClock(timeBase)
    }

    /// The header: version, the readable description, then the `N: I: P: B: A:` lines.
    public func header(to out: inout [UInt8]) {
        var text = "# EVEMU \(Self.version)\n"
        text += describe()
        text += "N: " + Self.singleLine(description.name) + "\n"
        let id = description.identity
        text += "I: " + [id.bus, id.vendor, id.product, id.version].map { TextColumns.hex($0, 4) }.joined(separator: " ")
            + "\n"
        for line in Self.maskLines(description.properties, minimumBytes: 8) { text += "P: " + line + "\n" }
        text += "B: 00 0b 00 00 00 00 00 00 00\n"
        var types = Self.typeMaxima
        for t in description.codes.keys where t != EventType.syn && !types.contains(where: { $0.type == t }) {
            types.append((t, -1))
        }
        for (type, maximum) in types.sorted(by: { $0.type < $1.type }) where type < EventType.count {
            let codes = description.codes[type] ?? []
            let highest = max(maximum, codes.filter { Int($0) <= Self.maximumCode }.map(Int.init).max() ?? -1)
            guard highest >= 0 else { continue }
            for line in Self.maskLines(codes, minimumBytes: (highest + 8) / 8) {
                text += "B: " + TextColumns.hex(type, 2) + " " + line + "\n"
            }
        }
        for code in description.absInfo.keys.sorted() where code < AbsCode.count {
            guard let a = description.absInfo[code] else { continue }
            text += "A: \(TextColumns.hex(code, 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        out.append(contentsOf: text.utf8)
    }

    /// One `E:` line, `E: %lu.%06u %04x %04x %04d`, with evemu's comment after a tab.
    public mutating func append(_ event: InputEvent, to out: inout [UInt8]) {
        let t = clock.time(event.time)
        let seconds = t.microseconds / 1_000_000
        let micros = t.microseconds % 1_000_000
        var line = "E: \(seconds)." + TextColumns.zeroPadded(micros, 6) + " " + TextColumns.hex(event.type, 4) + " "
        line += TextColumns.hex(event.code, 4) + " " + TextColumns.zeroPadded(Int64(event.value), 4)
        line += "\t# " + comment.text(event, time: t) + "\n"
        out.append(contentsOf: line.utf8)
    }

    /// Bits as hex bytes, eight to a line (zero-filled to whole lines of at least `minimumBytes`).
    static func maskLines(_ bits: Set<UInt16>, minimumBytes: Int) -> [String] {
        let kept = bits.filter { Int($0) <= maximumCode }
        let needed = max(minimumBytes, (kept.map { Int($0) }.max() ?? -1) / 8 + 1)
        var bytes = [UInt8](repeating: 0, count: (needed + 7) / 8 * 8)
        for b in kept { bytes[Int(b) / 8] |= 1 << UInt8(b % 8) }
        return stride(from: 0, to: bytes.count, by: 8).map { i in
            bytes[i..<(i + 8)].map { TextColumns.hex($0, 2) }.joined(separator: " ")
        }
    }

    /// A name on one line: evemu's parser reads `N:` to the end of the line.
    static func singleLine(_ s: String) -> String {
        String(s.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }

    /// evemu's evtest-like comment block: name, id, size, every code with its axis, properties.
    func describe() -> String {
        let d = description
        let id = d.identity
        var s = "# Input device name: \"\(Self.singleLine(d.name))\"\n"
        s += "# Input device ID: bus \(TextColumns.alternateHex(id.bus)) vendor \(TextColumns.alternateHex(id.vendor))"
        s += " product \(TextColumns.alternateHex(id.product)) version \(TextColumns.alternateHex(id.version))\n"
        if let size = Self.sizeMillimetres(d) { s += "# Size in mm: \(size.width)x\(size.height)\n" }
        var codes = d.codes
        // evemu always declares these (its `B: 00` line), so its description lists them too.
        codes[EventType.syn, default: []].formUnion([SynCode.report, SynCode.config, SynCode.dropped])
        s += EventNames.supportedEvents(d, codes: codes, prefix: "# ")
        return s
    }

    /// Width and height in whole millimetres, as evemu prints them, where ABS_X/Y have a resolution.
    static func sizeMillimetres(_ d: DeviceDescription) -> (width: Int64, height: Int64)? {
        guard let x = d.axis(AbsCode.x), let y = d.axis(AbsCode.y), x.resolution > 0, y.resolution > 0 else {
            return nil
        }
        let w = (Int64(x.maximum) - Int64(x.minimum)) / Int64(x.resolution)
        let h = (Int64(y.maximum) - Int64(y.minimum)) / Int64(y.resolution)
        return w != 0 && h != 0 ? (w, h) : nil
    }
}
