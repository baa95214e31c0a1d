import PressureCore

/// Why a daemon line could not be read as the message its `type` names (internal: events fall back to
/// ``ClientEvent/unknown(type:_:)``, `hello` and replies become ``PressuredClientError/invalidMessage(_:)``).
struct DecodeFailure: Error {
    var message: String
}

/// Typed access to the members of a daemon message. Unknown keys are simply never asked for: clients
/// ignore keys they do not know (`docs/protocol.md`).
struct MessageFields {
    let value: JSONValue

    init(_ value: JSONValue, what: String) throws(DecodeFailure) {
        guard case .object = value else { throw DecodeFailure(message: "\(what) is \(value.typeDescription), not an object") }
        self.value = value
    }

    func required(_ key: String) throws(DecodeFailure) -> JSONValue {
        guard let v = value[key], v != .null else { throw DecodeFailure(message: "'\(key)' is missing") }
        return v
    }

    func string(_ key: String) throws(DecodeFailure) -> String {
        let v = try required(key)
        guard let s = v.stringValue else { throw mistyped(key, v, "a string") }
        return s
    }

    func bool(_ key: String) throws(DecodeFailure) -> Bool {
        let v = try required(key)
        guard let b = v.boolValue else { throw mistyped(key, v, "a boolean") }
        return b
    }

    func int(_ key: String) throws(DecodeFailure) -> Int {
        let v = try required(key)
        guard let n = v.exactInteger else { throw mistyped(key, v, "an integer") }
        return n
    }

    func double(_ key: String) throws(DecodeFailure) -> Double {
        let v = try required(key)
        guard let n = v.numberValue else { throw mistyped(key, v, "a number") }
        return n
    }

    /// A number that may be absent (`progress`, `width`).
    func optionalDouble(_ key: String) throws(DecodeFailure) -> Double? {
        guard let v = value[key], v != .null else { return nil }
        guard let n = v.numberValue else { throw mistyped(key, v, "a number") }
        return n
    }

    /// A string that may be absent (`forceUnavailable`).
    func optionalString(_ key: String) throws(DecodeFailure) -> String? {
        guard let v = value[key], v != .null else { return nil }
        guard let s = v.stringValue else { throw mistyped(key, v, "a string") }
        return s
    }

    /// A string naming a case of `E` (`kind`, `sensitivity`…).
    func enumeration<E: RawRepresentable>(_ key: String, _: E.Type) throws(DecodeFailure) -> E where E.RawValue == String {
        let s = try string(key)
        guard let e = E(rawValue: s) else { throw DecodeFailure(message: "unknown '\(key)' value \"\(s)\"") }
        return e
    }

    /// Seconds with six decimals (`time`) as microseconds, rounded to the nearest: the wire writes exact
    /// microseconds, so this gets them back exactly.
    func timestamp(_ key: String) throws(DecodeFailure) -> Timestamp {
        let seconds = try double(key)
        let micro = (seconds * 1_000_000).rounded()
        // Beyond ±2^53 µs (285 years) a Double has no exact microseconds; refuse rather than trap in Int64().
        guard abs(micro) <= JSONValue.maximumExactInteger else {
            throw DecodeFailure(message: "'\(key)' is out of range")
        }
        return Timestamp(microseconds: Int64(micro))
    }

    func object(_ key: String) throws(DecodeFailure) -> MessageFields {
        try MessageFields(try required(key), what: "'\(key)'")
    }

    func array(_ key: String) throws(DecodeFailure) -> [JSONValue] {
        let v = try required(key)
        guard let a = v.arrayValue else { throw mistyped(key, v, "a list") }
        return a
    }

    private func mistyped(_ key: String, _ v: JSONValue, _ expected: String) -> DecodeFailure {
        DecodeFailure(message: "'\(key)' must be \(expected), not \(v.typeDescription)")
    }
}
