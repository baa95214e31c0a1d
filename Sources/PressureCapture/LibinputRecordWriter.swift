import PressureCore

/// Writes `libinput record` YAML, file format version 1, with one device, as `libinput record` lays it
/// out (the layout: ``LibinputRecordReader``), so `libinput replay` plays it and the reader reads back
/// exactly the description and events written. `libinput:` says `version: "unknown"` (no libinput wrote
/// it); `system:` has the kernel the caller passes; the description's lines carry evtest-like comments.
///
/// Each frame (the events up to and including a `SYN_REPORT`) is one `- evdev:` item, written as its
/// events arrive: the file is well-formed YAML after every line, so a recording cut short still parses.
public struct LibinputRecordWriter: Sendable {
    public static let version = 1

    public let description: DeviceDescription
    public let node: String
    public let udevProperties: [String]
    public let system: [(key: String, value: String)]
    var clock: CaptureClock
    var comment = EventComment()
    /// Whether a `- evdev:` item is open (a frame has begun and not yet reached its `SYN_REPORT`).
    var inFrame = false

    public init(
        description: DeviceDescription, timeBase: CaptureTimeBase, node: String = "",
        udevProperties: [String] = [], system: [(key: String, value: String)] = []
    ) {
        self.description = description
        self.node = node
        self.udevProperties = udevProperties
        self.system = system
        clock = CaptureClock(timeBase)
    }

    public func header(to out: inout [UInt8]) {
        let d = description
        var s = "# libinput record\n# written by pressurectl (pressured), in libinput's file format\n"
        s += "version: \(Self.version)\nndevices: 1\nlibinput:\n  version: \"unknown\"\n  git: \"unknown\"\n"
        s += "system:\n"
        for (key, value) in system { s += "  \(Self.plainKey(key)): " + Self.quoted(value) + "\n" }
        s += "devices:\n- node: " + Self.quoted(node.isEmpty ? "unknown" : node) + "\n  evdev:\n"
        s += describe()
        s += "    name: " + Self.quoted(d.name) + "\n"
        let id = d.identity
        s += "    id: [\(id.bus), \(id.vendor), \(id.product), \(id.version)]\n"
        s += "    codes:\n"
        for type in d.codes.keys.sorted() {
            let codes = (d.codes[type] ?? []).sorted().map { String($0) }.joined(separator: ", ")
            s += "      \(type): [\(codes)] # \(EventNames.type(type))\n"
        }
        if !d.absInfo.isEmpty {
            s += "    absinfo:\n"
            for code in d.absInfo.keys.sorted() {
                guard let a = d.absInfo[code] else { continue }
                s += "      \(code): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]\n"
            }
        }
        s += "    properties: [" + d.properties.sorted().map { String($0) }.joined(separator: ", ") + "]\n"
        s += "  udev:\n    properties:" + (udevProperties.isEmpty ? " []\n" : "\n")
        for p in udevProperties { s += "    - " + Self.singleLine(p) + "\n" }
        s += "  events:\n"
        out.append(contentsOf: s.utf8)
    }

    /// One event line, `- [%3lu, %6u, %3d, %3d, %7d] # comment`, opening a frame item where needed.
    public mutating func append(_ event: InputEvent, to out: inout [UInt8]) {
        let t = clock.time(event.time)
        var line = inFrame ? "" : "  - evdev:\n"
        inFrame = !(event.type == EventType.syn && event.code == SynCode.report)
        line += "    - [" + TextColumns.right("\(t.microseconds / 1_000_000)", 3) + ", "
        line += TextColumns.right("\(t.microseconds % 1_000_000)", 6) + ", "
        line += TextColumns.right("\(event.type)", 3) + ", " + TextColumns.right("\(event.code)", 3) + ", "
        line += TextColumns.right("\(event.value)", 7) + "] # " + comment.text(event, time: t) + "\n"
        out.append(contentsOf: line.utf8)
    }

    /// A YAML double-quoted scalar. A JSON string is one (YAML's double-quoted style is a superset of
    /// JSON's), so the protocol's JSON string writer does the escaping.
    static func quoted(_ s: String) -> String {
        var out: [UInt8] = []
        JSONWriter.appendString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A key as a plain scalar: ASCII letters, digits, `_` and `-` only.
    static func plainKey(_ s: String) -> String {
        let kept = s.unicodeScalars.filter { u in
            (u >= "a" && u <= "z") || (u >= "A" && u <= "Z") || (u >= "0" && u <= "9") || u == "_" || u == "-"
        }
        return kept.isEmpty ? "unknown" : String(String.UnicodeScalarView(kept))
    }

    /// A plain list item on one line. A `#` after a blank would start a YAML comment, so such a blank
    /// becomes `_`.
    static func singleLine(_ s: String) -> String {
        var out = ""
        var previous: Character = "x"
        for c in s {
            let flat: Character = c == "\n" || c == "\r" ? " " : c
            if flat == "#" && previous == " " { out.removeLast(); out.append("_") }
            out.append(flat)
            previous = flat
        }
        return out
    }

    /// `libinput record`'s evtest-like comment block.
    func describe() -> String {
        let d = description
        let id = d.identity
        var s = "    # Name: \(EvemuWriter.singleLine(d.name))\n"
        s += "    # ID: bus 0x\(TextColumns.hex(id.bus, 1)) vendor 0x\(TextColumns.hex(id.vendor, 1))"
        s += " product 0x\(TextColumns.hex(id.product, 1)) version 0x\(TextColumns.hex(id.version, 1))\n"
        if let size = EvemuWriter.sizeMillimetres(d) { s += "    # Size in mm: \(size.width)x\(size.height)\n" }
        s += EventNames.supportedEvents(d, codes: d.codes, prefix: "    # ")
        return s
    }
}
