import PressureCore

/// Collects an evemu header's lines into a ``DeviceDescription``.
struct HeaderBuilder {
    var name: String?
    var identity: DeviceIdentity?
    var propertyBytes = 0
    var properties: Set<UInt16> = []
    var codes: [UInt16: Set<UInt16>] = [:]
    /// Bytes of `B:` bitmask seen so far per event type (a type's mask spans several lines).
    var maskBytes: [UInt16: Int] = [:]
    var absInfo: [UInt16: AbsInfo] = [:]
    var sawHeader = false

    /// A bitmask longer than this per type is refused (KEY_MAX is 0x2ff: 96 bytes).
    static let maximumMaskBytes = 128

    var description: DeviceDescription? {
        guard sawHeader else { return nil }
        var allCodes = codes
        // evemu lists axes twice (a B: bit and an A: line); an A: line alone still declares the axis.
        for code in absInfo.keys { allCodes[EventType.abs, default: []].insert(code) }
        return DeviceDescription(
            name: name ?? "", identity: identity ?? DeviceIdentity(), properties: properties,
            codes: allCodes, absInfo: absInfo)
    }

    /// Takes one header line (after its `X:`); returns what is wrong with it, or nil.
    mutating func take(prefix: UInt8, _ s: inout LineScanner) -> String? {
        sawHeader = true
        switch prefix {
        case UInt8(ascii: "N"):
            name = s.rest()
        case UInt8(ascii: "I"):
            guard let bus = s.hex(limit: 0xffff), let vendor = s.hex(limit: 0xffff),
                let product = s.hex(limit: 0xffff), let version = s.hex(limit: 0xffff), s.atEndOrComment()
            else { return "an id line needs four hex numbers (bus vendor product version)" }
            identity = DeviceIdentity(
                bus: UInt16(bus), vendor: UInt16(vendor), product: UInt16(product), version: UInt16(version))
        case UInt8(ascii: "P"):
            while !s.atEndOrComment() {
                guard let byte = s.hex(limit: 0xff) else { return "a property line needs hex bytes" }
                for bit in 0..<8 where byte & (1 << UInt64(bit)) != 0 {
                    properties.insert(UInt16(propertyBytes * 8 + bit))
                }
                propertyBytes += 1
                guard propertyBytes <= Self.maximumMaskBytes else { return "too many property bytes" }
            }
        case UInt8(ascii: "B"):
            guard let type = s.hex(limit: 0x1f) else { return "a bitmask line needs an event type (hex, 00–1f)" }
            var offset = maskBytes[UInt16(type), default: 0]
            while !s.atEndOrComment() {
                guard let byte = s.hex(limit: 0xff) else { return "a bitmask line needs hex bytes" }
                // Type 0's mask lists event types, not codes; the other masks are what we keep.
                if type != 0 {
                    for bit in 0..<8 where byte & (1 << UInt64(bit)) != 0 {
                        codes[UInt16(type), default: []].insert(UInt16(offset * 8 + bit))
                    }
                }
                offset += 1
                guard offset <= Self.maximumMaskBytes else { return "bitmask of type \(type) is too long" }
            }
            maskBytes[UInt16(type)] = offset
        case UInt8(ascii: "A"):
            let range = Int64(Int32.min)...Int64(Int32.max)
            guard let code = s.hex(limit: 0x3f), let lo = s.decimal(in: range), let hi = s.decimal(in: range),
                let fuzz = s.decimal(in: range), let flat = s.decimal(in: range)
            else { return "an axis line needs `code min max fuzz flat [resolution]`" }
            var resolution: Int64 = 0
            if !s.atEndOrComment() {
                guard let r = s.decimal(in: range), s.atEndOrComment() else {
                    return "an axis line needs `code min max fuzz flat [resolution]`"
                }
                resolution = r
            }
            absInfo[UInt16(code)] = AbsInfo(
                minimum: Int32(lo), maximum: Int32(hi), fuzz: Int32(fuzz), flat: Int32(flat),
                resolution: Int32(resolution))
        case UInt8(ascii: "L"), UInt8(ascii: "S"):
            guard s.hex(limit: 0xffff) != nil, s.decimal(in: Int64(Int32.min)...Int64(Int32.max)) != nil,
                s.atEndOrComment()
            else { return "an LED or switch line needs `code value`" }
        default:
            return "unknown line type"
        }
        return nil
    }
}
