/// Typed access to the members of a daemon message, for the decoders. Unknown keys are simply never
/// asked for: clients ignore keys they do not know (`docs/protocol.md`).
struct MessageFields {
    let value: JSONValue

    init(_ value: JSONValue, what: String) throws(MessageDecodingError) {
        guard case .object = value else { throw MessageDecodingError("\(what) is \(value.typeDescription), not an object") }
        self.value = value
    }

    func required(_ key: String) throws(MessageDecodingError) -> JSONValue {
        guard let v = value[key], v != .null else { throw MessageDecodingError("'\(key)' is missing") }
        return v
    }

    func string(_ key: String) throws(MessageDecodingError) -> String {
        let v = try required(key)
        guard let s = v.stringValue else { throw mistyped(key, v, "a string") }
        return s
    }

    func bool(_ key: String) throws(MessageDecodingError) -> Bool {
        let v = try required(key)
        guard let b = v.boolValue else { throw mistyped(key, v, "a boolean") }
        return b
    }

    /// A boolean that may be absent.
    func optionalBool(_ key: String) throws(MessageDecodingError) -> Bool? {
        guard let v = value[key], v != .null else { return nil }
        guard let b = v.boolValue else { throw mistyped(key, v, "a boolean") }
        return b
    }

    func int(_ key: String) throws(MessageDecodingError) -> Int {
        let v = try required(key)
        guard let n = v.exactInteger else { throw mistyped(key, v, "an integer") }
        return n
    }

    /// An integer that fits `T` (`Int32` positions, `UInt64` contacts).
    func integer<T: FixedWidthInteger>(_ key: String, as _: T.Type) throws(MessageDecodingError) -> T {
        let n = try int(key)
        guard let t = T(exactly: n) else { throw MessageDecodingError("'\(key)' is out of range: \(n)") }
        return t
    }

    /// An integer that may be absent.
    func optionalInt(_ key: String) throws(MessageDecodingError) -> Int? {
        guard let v = value[key], v != .null else { return nil }
        guard let n = v.exactInteger else { throw mistyped(key, v, "an integer") }
        return n
    }

    func double(_ key: String) throws(MessageDecodingError) -> Double {
        let v = try required(key)
        guard let n = v.numberValue else { throw mistyped(key, v, "a number") }
        return n
    }

    /// A number that may be absent (`progress`, `width`).
    func optionalDouble(_ key: String) throws(MessageDecodingError) -> Double? {
        guard let v = value[key], v != .null else { return nil }
        guard let n = v.numberValue else { throw mistyped(key, v, "a number") }
        return n
    }

    /// A string that may be absent (`forceUnavailable`).
    func optionalString(_ key: String) throws(MessageDecodingError) -> String? {
        guard let v = value[key], v != .null else { return nil }
        guard let s = v.stringValue else { throw mistyped(key, v, "a string") }
        return s
    }

    /// A string naming a case of `E` (`kind`, `sensitivity`…).
    func enumeration<E: RawRepresentable>(_ key: String, _: E.Type) throws(MessageDecodingError) -> E where E.RawValue == String {
        let s = try string(key)
        guard let e = E(rawValue: s) else { throw MessageDecodingError("unknown '\(key)' value \"\(s)\"") }
        return e
    }

    /// Seconds with six decimals (`time`) as microseconds, rounded to the nearest: the wire writes exact
    /// microseconds, so this gets them back exactly.
    func timestamp(_ key: String) throws(MessageDecodingError) -> Timestamp {
        let seconds = try double(key)
        let micro = (seconds * 1_000_000).rounded()
        // Beyond ±2^53 µs (285 years) a Double has no exact microseconds; refuse rather than trap in Int64().
        guard abs(micro) <= JSONValue.maximumExactInteger else {
            throw MessageDecodingError("'\(key)' is out of range")
        }
        return Timestamp(microseconds: Int64(micro))
    }

    func object(_ key: String) throws(MessageDecodingError) -> MessageFields {
        try MessageFields(try required(key), what: "'\(key)'")
    }

    /// An object that may be absent (`screen`).
    func optionalObject(_ key: String) throws(MessageDecodingError) -> MessageFields? {
        guard let v = value[key], v != .null else { return nil }
        return try MessageFields(v, what: "'\(key)'")
    }

    func array(_ key: String) throws(MessageDecodingError) -> [JSONValue] {
        let v = try required(key)
        guard let a = v.arrayValue else { throw mistyped(key, v, "a list") }
        return a
    }

    /// A list of strings (`items`, `cut`, `assumed`); absent is empty.
    func strings(_ key: String) throws(MessageDecodingError) -> [String] {
        guard let v = value[key], v != .null else { return [] }
        guard let list = v.arrayValue else { throw mistyped(key, v, "a list") }
        var out: [String] = []
        for element in list {
            guard let s = element.stringValue else { throw mistyped(key, element, "a list of strings") }
            out.append(s)
        }
        return out
    }

    /// Each element of a list, as an object.
    func objects(_ key: String) throws(MessageDecodingError) -> [MessageFields] {
        var out: [MessageFields] = []
        for element in try array(key) { out.append(try MessageFields(element, what: "an element of '\(key)'")) }
        return out
    }

    /// The member named `key` exactly as sent, `null` included; nil when absent (a request's `id`).
    func raw(_ key: String) -> JSONValue? { value[key] }

    private func mistyped(_ key: String, _ v: JSONValue, _ expected: String) -> MessageDecodingError {
        MessageDecodingError("'\(key)' must be \(expected), not \(v.typeDescription)")
    }
}
