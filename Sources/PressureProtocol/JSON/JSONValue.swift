/// A parsed JSON value (RFC 8259), as requests arrive over the socket (`docs/protocol.md`).
///
/// Objects keep their members in order, duplicates included (``subscript(_:)`` finds the first), and
/// compare member by member in order: this represents the text, not JSON semantics. Numbers are
/// `Double`s, as in JavaScript (beyond ±2^53, see ``exactInteger``); a parsed number keeps its `literal`
/// too, so a request's `id` is echoed exactly as the client wrote it. Numbers compare by value.
public enum JSONValue: Sendable, Hashable, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    case null
    case bool(Bool)
    /// `literal`: the text the number was read from (``JSONParser`` sets it; it must be a JSON number),
    /// nil for a number made in code, which is written in its shortest round-tripping form.
    case number(Double, literal: String? = nil)
    case string(String)
    case array([JSONValue])
    /// Members in source order.
    case object([(String, JSONValue)])

    // MARK: Equality: numbers by value, object members in order

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x, _), .number(let y, _)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b):
            hasher.combine(1)
            hasher.combine(b)
        case .number(let n, _):
            hasher.combine(2)
            hasher.combine(n)
        case .string(let s):
            hasher.combine(3)
            hasher.combine(s)
        case .array(let a):
            hasher.combine(4)
            hasher.combine(a)
        case .object(let members):
            hasher.combine(5)
            hasher.combine(members.count)
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    // MARK: Reading a value

    /// The largest magnitude up to which every integer is exactly representable as a `Double` (2^53).
    public static let maximumExactInteger: Double = 9_007_199_254_740_992

    /// The first member named `key` of an object; nil for a missing key or a value that is not an object.
    public subscript(_ key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for (k, v) in members where k == key { return v }
        return nil
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number, if this is a number.
    public var numberValue: Double? {
        if case .number(let n, _) = self { return n }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members in source order, if this is an object.
    public var objectMembers: [(String, JSONValue)]? {
        if case .object(let m) = self { return m }
        return nil
    }

    /// The number as an `Int` when it is one exactly: `3`, `3.0` and `3e2` are integers; `1.5`, `1e30`
    /// and anything beyond ±2^53 (where a `Double` no longer tells neighbouring integers apart) are not.
    public var exactInteger: Int? {
        guard case .number(let n, _) = self, n.isFinite, abs(n) <= Self.maximumExactInteger else { return nil }
        return Int(exactly: n)
    }

    /// A short name of the value's JSON type, for error messages: `null`, `a boolean`, `a number`…
    public var typeDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "a list"
        case .object: return "an object"
        }
    }

    // MARK: Literals, for tests and tools. There is no `nil` literal (`JSONValue?` would be
    // ambiguous): JSON `null` is always spelled `.null`.

    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// Members in the order written (a dictionary literal keeps its order and its duplicates).
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements) }
}
