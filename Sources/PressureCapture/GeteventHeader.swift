import PressureCore

/// Collects one device's block of `getevent -p` / `-lp` (or the plain `add device` lines every getevent
/// prints) into a ``DeviceDescription``. After `add device N: /dev/input/eventX`, indented, one a line:
///
/// ```
///   bus:      0018    vendor    0000    product   0000    version   0000
///   name:     "touch_dev"    version:  1.0.1
///   events:
///     KEY (0001): BTN_TOUCH             BTN_TOOL_FINGER*          (names with -l, else 4 hex digits)
///     ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
///                 ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0
///   input props:
///     INPUT_PROP_DIRECT
/// ```
///
/// Other indented lines (`location:`, `id:`, a HID descriptor) are not read. A line that begins like one of
/// these and does not go on as it should is an error.
struct GeteventHeader {
    private enum Section {
        case top, events, properties
    }

    private(set) var name: String?
    private(set) var identity = DeviceIdentity()
    /// Names in the event list the kernel table lacks (their codes are left out).
    private(set) var unknownNames: [String] = []
    private var codes: [UInt16: Set<UInt16>] = [:]
    private var absInfo: [UInt16: AbsInfo] = [:]
    private var properties: Set<UInt16> = []
    private var sawEvents = false
    private var section = Section.top
    private var type: UInt16?

    /// The description, if the block lists the device's events (`-p`); a block with only a name says
    /// nothing of the axes.
    var description: DeviceDescription? {
        guard sawEvents else { return nil }
        return DeviceDescription(
            name: name ?? "", identity: identity, properties: properties, codes: codes, absInfo: absInfo)
    }

    /// Takes one indented line, `s` at its first non-space byte.
    mutating func take(_ s: inout LineScanner) -> HeaderLine {
        if section == .events, let outcome = takeEventList(&s) { return outcome }
        if section == .properties, let outcome = takeProperty(&s) { return outcome }
        for (label, path) in [("bus:", \DeviceIdentity.bus), ("vendor", \.vendor), ("product", \.product)]
            as [(StaticString, WritableKeyPath<DeviceIdentity, UInt16>)]
        {
            guard s.take(word: label) else { continue }
            guard let v = s.hex(limit: 0xffff), s.atEnd else { return .malformed("expected `\(label) <4 hex digits>`") }
            identity[keyPath: path] = UInt16(v)
            return .taken
        }
        if s.take(word: "version") {
            // `version   0001` is the id's; `version:  1.0.1` the driver's, which says nothing of the device.
            if s.take(UInt8(ascii: ":")) { return .taken }
            guard let v = s.hex(limit: 0xffff), s.atEnd else { return .malformed("expected `version <4 hex digits>`") }
            identity.version = UInt16(v)
            return .taken
        }
        if s.take(word: "name:") {
            name = s.restUnquoted()
            return .taken
        }
        if s.take(word: "events:") {
            sawEvents = true
            section = .events
            return .taken
        }
        if s.take(word: "input props:") {
            section = .properties
            return .taken
        }
        return .notHeader
    }

    /// `KEY (0001): …`, `ABS (0003): … : value …`, or a continuation line of the list; nil for a line
    /// that is none of these.
    private mutating func takeEventList(_ s: inout LineScanner) -> HeaderLine? {
        var probe = s
        let label = probe.word()
        var opened = false
        if !label.isEmpty, probe.takeSpacesThen(UInt8(ascii: "(")) {
            guard let t = probe.hex(limit: UInt64(EventType.count - 1)), probe.take(UInt8(ascii: ")")),
                probe.take(UInt8(ascii: ":"))
            else { return .malformed("expected `<TYPE> (<4 hex digits>): <codes>`") }
            type = UInt16(t)
            codes[UInt16(t)] = codes[UInt16(t)] ?? []
            s = probe
            opened = true
        }
        guard let t = type else { return nil }
        if t == EventType.abs {
            s.skipSpaces()
            if opened && s.atEnd { return .taken }
            return takeAxis(&s)
        }
        var any = opened
        while true {
            let w = s.word()
            if w.isEmpty { break }
            switch GeteventLine.token(s.bytes, w, limit: 0x2ff) {
            case .number(let c): codes[t, default: []].insert(UInt16(c))
            case .meaning(.code(t, let c)): codes[t, default: []].insert(c)
            case .meaning: return any ? .malformed("a name of another event type in the \(EventNames.type(t)) list") : nil
            case .unknown(let n):
                guard any || n.contains("_") else { return nil }
                unknownNames.append(n)
            }
            any = true
        }
        return any ? .taken : nil
    }

    /// `ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0` (or `002f  : …`).
    private mutating func takeAxis(_ s: inout LineScanner) -> HeaderLine? {
        var probe = s
        let w = probe.word()
        let code: UInt16
        switch GeteventLine.token(s.bytes, w, limit: UInt64(AbsCode.count - 1)) {
        case .number(let c): code = UInt16(c)
        case .meaning(.code(EventType.abs, let c)): code = c
        default: return probe.takeSpacesThen(UInt8(ascii: ":")) ? .malformed("`\(GeteventLine.text(s.bytes, w))` is not an ABS code") : nil
        }
        guard probe.takeSpacesThen(UInt8(ascii: ":")) else { return nil }
        var info = AbsInfo(minimum: 0, maximum: 0)
        var seen = 0
        let fields: [(StaticString, WritableKeyPath<AbsInfo, Int32>?)] = [
            ("value", nil), ("min", \.minimum), ("max", \.maximum), ("fuzz", \.fuzz), ("flat", \.flat),
            ("resolution", \.resolution),
        ]
        while !probe.atEndOrComment() {
            _ = probe.take(UInt8(ascii: ","))
            probe.skipSpaces()
            guard let k = fields.firstIndex(where: { probe.take(word: $0.0) }), probe.takeSpaces(),
                let v = probe.decimal(in: Int64(Int32.min)...Int64(Int32.max))
            else { return .malformed("expected `value N, min N, max N, fuzz N, flat N, resolution N` after an ABS code") }
            if let path = fields[k].1 { info[keyPath: path] = Int32(v) }
            if k == 1 || k == 2 { seen += 1 }
        }
        guard seen == 2 else { return .malformed("an ABS code's line needs its min and max") }
        codes[EventType.abs, default: []].insert(code)
        absInfo[code] = info
        s = probe
        return .taken
    }

    /// `INPUT_PROP_DIRECT`, `0001`, `<none>`; nil for a line that is none of these.
    private mutating func takeProperty(_ s: inout LineScanner) -> HeaderLine? {
        if s.take(UInt8(ascii: "<")) { return .taken }
        var probe = s
        let w = probe.word()
        guard !w.isEmpty, probe.atEnd else { return nil }
        switch GeteventLine.token(s.bytes, w, limit: 0x1f) {
        case .number(let p): properties.insert(UInt16(p))
        case .meaning(.property(let p)): properties.insert(p)
        default: return nil
        }
        s = probe
        return .taken
    }
}
