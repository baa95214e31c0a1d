import PressureCore

/// Collects the header evtest prints before the events into a ``DeviceDescription``:
///
/// ```
/// Input driver version is 1.0.1
/// Input device ID: bus 0x18 vendor 0x0 product 0x0 version 0x1
/// Input device name: "Cypress APA Trackpad (cyapa)"
/// Supported events:
///   Event type 3 (EV_ABS)
///     Event code 58 (ABS_MT_PRESSURE)
///       Value      0                (then Min, Max, one a line; Fuzz, Flat, Resolution only where not 0)
/// Properties:
///   Property type 1 (INPUT_PROP_DIRECT)
/// Key repeat handling: …            (skipped, with its Repeat and Value lines)
/// Testing ... (interrupt to exit)
/// ```
///
/// A line that begins like one of these but does not go on as it should is an error; any other line is
/// not the header's, and the reader decides what it is.
struct EvtestHeader {
    /// The lines that open a header. One of them after a session's events, or twice in one header,
    /// begins the next session (several evtest runs pasted into one file).
    enum Field: CaseIterable {
        case version, identity, name
    }

    private enum Section {
        case top, events, properties, repeats
    }

    private(set) var name: String?
    private(set) var identity: DeviceIdentity?
    private(set) var fields: Set<Field> = []
    private var codes: [UInt16: Set<UInt16>] = [:]
    private var absInfo: [UInt16: AbsInfo] = [:]
    private var properties: Set<UInt16> = []
    private var sawSupportedEvents = false
    private var section = Section.top
    private var type: UInt16?
    private var axis: UInt16?

    /// The description, if the header lists the device's events (a header with only a name and an id
    /// says nothing of the axes).
    var description: DeviceDescription? {
        guard sawSupportedEvents else { return nil }
        return DeviceDescription(
            name: name ?? "", identity: identity ?? DeviceIdentity(), properties: properties, codes: codes,
            absInfo: absInfo)
    }

    /// The opening field `s` (at a line's first non-space byte) starts with, consuming its label.
    static func openingField(_ s: inout LineScanner) -> Field? {
        guard s.take(word: "Input"), s.takeSpaces() else { return nil }
        if s.take(word: "driver"), s.takeSpaces(), s.take(word: "version") { return .version }
        guard s.take(word: "device"), s.takeSpaces() else { return nil }
        if s.take(word: "ID:") { return .identity }
        if s.take(word: "name:") { return .name }
        return nil
    }

    /// Takes one line, `s` at its first non-space byte.
    mutating func take(_ s: inout LineScanner) -> HeaderLine {
        var probe = s
        if let field = Self.openingField(&probe) {
            s = probe
            return takeOpening(field, &s)
        }
        if s.take(word: "Supported events:") {
            sawSupportedEvents = true
            section = .events
            return .taken
        }
        if s.take(word: "Properties:") {
            section = .properties
            return .taken
        }
        if s.take(word: "Key repeat handling:") {
            section = .repeats
            return .taken
        }
        if s.take(word: "Testing ...") || s.take(word: "Repeat type") || s.take(word: "Repeat code") { return .taken }
        if s.take(word: "Event type") { return takeType(&s) }
        if s.take(word: "Event code") { return takeCode(&s) }
        if s.take(word: "Property type") {
            guard let p = numberAndName(&s, limit: 0x1f) else {
                return .malformed("expected `Property type <number> (<name>)`")
            }
            properties.insert(UInt16(p))
            return .taken
        }
        return takeAxisValue(&s)
    }

    private mutating func takeOpening(_ field: Field, _ s: inout LineScanner) -> HeaderLine {
        fields.insert(field)
        switch field {
        case .version:
            return .taken
        case .identity:
            var parts: [UInt16] = []
            for word: StaticString in ["bus", "vendor", "product", "version"] {
                s.skipSpaces()
                guard s.take(word: word), let v = s.hex(limit: 0xffff) else {
                    return .malformed("expected `Input device ID: bus 0x<hex> vendor 0x<hex> product 0x<hex> version 0x<hex>`")
                }
                parts.append(UInt16(v))
            }
            identity = DeviceIdentity(bus: parts[0], vendor: parts[1], product: parts[2], version: parts[3])
            return .taken
        case .name:
            name = s.restUnquoted()
            return .taken
        }
    }

    private mutating func takeType(_ s: inout LineScanner) -> HeaderLine {
        guard let t = numberAndName(&s, limit: UInt64(EventType.count - 1)) else {
            return .malformed("expected `Event type <number> (<name>)`")
        }
        section = .events
        type = UInt16(t)
        axis = nil
        if t != 0 { codes[UInt16(t), default: []] = codes[UInt16(t)] ?? [] }
        return .taken
    }

    private mutating func takeCode(_ s: inout LineScanner) -> HeaderLine {
        guard let t = type else { return .malformed("an `Event code` line before any `Event type` line") }
        // evtest adds a key's or switch's state after the name (`state 1`): not part of the description.
        guard let c = numberAndName(&s, limit: 0x2ff, rest: true) else {
            return .malformed("expected `Event code <number> (<name>)`")
        }
        let code = UInt16(c)
        if t != 0 { codes[t, default: []].insert(code) }
        axis = nil
        if t == EventType.abs {
            guard Int(code) < AbsCode.count else { return .malformed("ABS code \(code) is beyond ABS_MAX") }
            axis = code
            absInfo[code] = AbsInfo(minimum: 0, maximum: 0)
        }
        return .taken
    }

    /// `Value`, `Min`, `Max`, `Fuzz`, `Flat`, `Resolution` under an axis.
    private mutating func takeAxisValue(_ s: inout LineScanner) -> HeaderLine {
        let start = s.position
        let labels: [(StaticString, WritableKeyPath<AbsInfo, Int32>?)] = [
            ("Value", nil), ("Min", \.minimum), ("Max", \.maximum), ("Fuzz", \.fuzz), ("Flat", \.flat),
            ("Resolution", \.resolution),
        ]
        for (label, field) in labels {
            s.position = start
            guard s.take(word: label), s.takeSpaces() else { continue }
            guard let v = s.decimal(in: Int64(Int32.min)...Int64(Int32.max)), s.atEndOrComment() else {
                return .malformed("expected `\(label) <number>` under an axis")
            }
            // A repeat rate's `Value` belongs to no axis.
            if section == .events, let a = axis, let f = field { absInfo[a]?[keyPath: f] = Int32(v) }
            return .taken
        }
        s.position = start
        return .notHeader
    }

    /// `<number> (<name>)`, the name unread; with `rest`, anything may follow.
    private func numberAndName(_ s: inout LineScanner, limit: UInt64, rest: Bool = false) -> UInt64? {
        guard let n = s.decimal(in: 0...Int64(limit)) else { return nil }
        s.skipSpaces()
        guard s.take(UInt8(ascii: "(")) else { return nil }
        while let b = s.current, b != UInt8(ascii: ")") { s.position += 1 }
        guard s.take(UInt8(ascii: ")")) else { return nil }
        s.skipSpaces()
        return rest || s.atEnd ? UInt64(n) : nil
    }
}
