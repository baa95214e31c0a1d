/// Appends JSON text to a byte buffer: the pieces ``ServerMessage`` is built from, and an encoder for
/// ``JSONValue`` (a request's `id` is echoed back with it).
public enum JSONWriter {
    /// A quoted string. `"` and `\` are escaped with a backslash, control characters (U+0000–U+001F) as
    /// `\u00XX`; everything else, DEL and non-ASCII included, is copied as UTF-8 (a `String` is always
    /// valid UTF-8, so the output is too).
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        s.withUTF8 { appendEscaped($0, to: &out) }
        out.append(UInt8(ascii: "\""))
    }

    /// The body of a string, without quotes. `utf8` must be valid UTF-8 (it comes from a `String`).
    static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var runStart = 0
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        for (i, byte) in utf8.enumerated() where byte < 0x20 || byte == quote || byte == backslash {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            runStart = i + 1
            out.append(UInt8(ascii: "\\"))
            if byte >= 0x20 {
                out.append(byte)
            } else {
                out.append(contentsOf: "u00".utf8)
                out.append(hexDigit(byte >> 4))
                out.append(hexDigit(byte & 0xF))
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// `true` or `false`.
    public static func appendBool(_ b: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: (b ? "true" : "false").utf8)
    }

    /// An integer (``WireFormat/appendInteger(_:to:)``).
    public static func appendInteger(_ n: Int, to out: inout [UInt8]) {
        WireFormat.appendInteger(Int64(n), to: &out)
    }

    /// A number written so it parses back to the same `Double`: integers up to ±2^53 as integers
    /// (`3`, `-12`), anything else in the shortest form that round-trips (`0.1`, `1e+30`, `5e-324`).
    /// JSON has no infinities or NaN: they are written as `null`.
    public static func appendNumber(_ d: Double, to out: inout [UInt8]) {
        guard d.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if d == d.rounded(.towardZero), abs(d) <= JSONValue.maximumExactInteger {
            WireFormat.appendInteger(Int64(d), to: &out)
        } else {
            // Swift's shortest round-tripping form is valid JSON for finite values: `1.5`, `1e-07`, `1e+20`.
            out.append(contentsOf: d.description.utf8)
        }
    }

    /// A JSON value, compactly (no whitespace), object members in their order; a number the parser read
    /// as its literal text.
    public static func append(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): appendBool(b, to: &out)
        case .number(_, let literal?): out.append(contentsOf: literal.utf8)  // as it was read
        case .number(let n, nil): appendNumber(n, to: &out)
        case .string(let s): appendString(s, to: &out)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                append(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, member)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                append(member, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `[a,b,c]`, each element written by `element`.
    public static func appendList<C: Collection>(
        _ elements: C, to out: inout [UInt8], _ element: (C.Element, inout [UInt8]) -> Void
    ) {
        out.append(UInt8(ascii: "["))
        for (i, e) in elements.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            element(e, &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// `["a","b"]`
    public static func appendStrings(_ list: [String], to out: inout [UInt8]) {
        appendList(list, to: &out) { s, out in appendString(s, to: &out) }
    }

    /// `[1,2,3]`
    public static func appendIntegers(_ list: some Collection<Int>, to out: inout [UInt8]) {
        appendList(list, to: &out) { n, out in appendInteger(n, to: &out) }
    }

    /// `{"a":1,"b":2}`: an object of counts, in the order given.
    public static func appendCounts(_ fields: KeyValuePairs<String, Int>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        for (i, field) in fields.enumerated() {
            appendKey(field.key, first: i == 0, to: &out)
            appendInteger(field.value, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `,"key":"value"`, nothing where the value is nil (optional members).
    public static func appendMember(_ key: String, _ value: String?, to out: inout [UInt8]) {
        guard let value else { return }
        appendKey(key, to: &out)
        appendString(value, to: &out)
    }

    /// `"key":` with a leading comma unless `first` (keys are ASCII literals chosen by the daemon).
    @inline(__always)
    public static func appendKey(_ key: String, first: Bool = false, to out: inout [UInt8]) {
        if !first { out.append(UInt8(ascii: ",")) }
        appendString(key, to: &out)
        out.append(UInt8(ascii: ":"))
    }
}

extension JSONValue {
    /// The value as compact JSON text (tests, logs).
    public var jsonText: String {
        var out: [UInt8] = []
        JSONWriter.append(self, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
