import PressureCore

/// The kernel's names parsed from ``EventNames/kernelTable``: numbers to names for the writers, and names
/// to numbers for the readers. A name is looked up by the bytes of the line it sits in, through a hash of
/// them, so reading a named log allocates nothing per event. A class, made once: a lookup then costs no
/// copy of the tables.
public final class KernelNames: Sendable {
    /// What a name stands for.
    public enum Meaning: Hashable, Sendable {
        /// An event type (`EV_ABS`).
        case type(UInt16)
        /// A code of an event type (`ABS_MT_PRESSURE`: type 3, code 0x3a).
        case code(type: UInt16, code: UInt16)
        /// An input property (`INPUT_PROP_DIRECT`).
        case property(UInt16)
        /// A value of `ABS_MT_TOOL_TYPE` (`MT_TOOL_PALM`).
        case toolType(UInt16)
    }

    let types: [UInt16: String]
    let codes: [UInt16: [UInt16: String]]
    let properties: [UInt16: String]
    private let names: [(name: [UInt8], meaning: Meaning)]
    /// An open-addressing table of indices into `names` (-1 empty) beside each name's hash, placed by the
    /// FNV-1a hash of the name's bytes and probed linearly: a lookup hashes the bytes once and compares
    /// the bytes of a name only where the hashes agree, with none of `Dictionary`'s hashing on top.
    private let slots: [Int32]
    private let slotHashes: [UInt64]
    private let mask: UInt64

    /// The event type each code prefix belongs to.
    static let codePrefixes: [(String, UInt16)] = [
        ("SYN_", EventType.syn), ("KEY_", EventType.key), ("BTN_", EventType.key), ("REL_", EventType.rel),
        ("ABS_", EventType.abs), ("MSC_", EventType.msc), ("SW_", 0x05), ("LED_", 0x11), ("SND_", 0x12),
        ("REP_", 0x14),
    ]

    /// Parses `NAME=hex` and `NAME~hex` words (see ``EventNames/kernelTable``).
    init(parsing table: String) {
        var types: [UInt16: String] = [:]
        var codes: [UInt16: [UInt16: String]] = [:]
        var properties: [UInt16: String] = [:]
        var names: [(name: [UInt8], meaning: Meaning)] = []
        for word in table.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let mark = word.firstIndex(where: { $0 == "=" || $0 == "~" }),
                let value = UInt16(word[word.index(after: mark)...], radix: 16)
            else { continue }
            let name = String(word[..<mark])
            let alias = word[mark] == "~"
            guard let meaning = Self.meaning(of: name, value: value) else { continue }
            if !alias {
                switch meaning {
                case .type(let t): types[t] = name
                case .code(let t, let c): codes[t, default: [:]][c] = name
                case .property(let p): properties[p] = name
                case .toolType: break
                }
            }
            names.append((Array(name.utf8), meaning))
        }
        // At most a quarter full, so probes stay short.
        var size = 16
        while size < names.count * 4 { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        var slotHashes = [UInt64](repeating: 0, count: size)
        let mask = UInt64(size - 1)
        for (i, entry) in names.enumerated() {
            let h = entry.name.withUnsafeBufferPointer { Self.hash($0, from: 0, to: $0.count) }
            var k = Int(h & mask)
            while slots[k] >= 0 { k = (k + 1) & Int(mask) }
            slots[k] = Int32(i)
            slotHashes[k] = h
        }
        (self.types, self.codes, self.properties, self.names) = (types, codes, properties, names)
        (self.slots, self.slotHashes, self.mask) = (slots, slotHashes, mask)
    }

    private static func meaning(of name: String, value: UInt16) -> Meaning? {
        if name.hasPrefix("INPUT_PROP_") { return .property(value) }
        if name.hasPrefix("MT_TOOL_") { return .toolType(value) }
        if name.hasPrefix("EV_") { return .type(value) }
        for (prefix, type) in codePrefixes where name.hasPrefix(prefix) { return .code(type: type, code: value) }
        return nil
    }

    /// The meaning of the name in `bytes[start..<end]`, or nil for a name the kernel does not define.
    func lookup(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Meaning? {
        guard start < end else { return nil }
        let h = Self.hash(bytes, from: start, to: end)
        var k = Int(h & mask)
        while true {
            let i = Int(slots[k])
            guard i >= 0 else { return nil }
            if slotHashes[k] == h, names[i].name.withUnsafeBufferPointer({ Self.same($0, bytes, start, end) }) {
                return names[i].meaning
            }
            k = (k + 1) & Int(mask)
        }
    }

    @inline(__always)
    private static func same(_ name: UnsafeBufferPointer<UInt8>, _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard name.count == end - start else { return false }
        for k in 0..<name.count where name[k] != bytes[start + k] { return false }
        return true
    }

    /// The one name that begins with `bytes[start..<end]`, for tools that cut names to a column width
    /// (`getevent -l` prints at most 20 characters); nil where none or several do.
    func lookup(prefix bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Meaning? {
        var found: Meaning? = nil
        let length = end - start
        for entry in names where entry.name.count > length {
            var same = true
            for k in 0..<length where entry.name[k] != bytes[start + k] {
                same = false
                break
            }
            guard same else { continue }
            if let f = found, f != entry.meaning { return nil }
            found = entry.meaning
        }
        return found
    }

    /// Every name in the table, for the tests.
    var allNames: [String] { names.map { String(decoding: $0.name, as: UTF8.self) } }

    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in start..<end {
            h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01b3
        }
        return h
    }
}
