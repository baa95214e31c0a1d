/// A strict RFC 8259 JSON parser for request lines from untrusted clients.
///
/// Strict: no comments, trailing commas, single quotes, `NaN`, leading `+` or zeros, byte-order mark, or
/// anything after the value but whitespace (space, tab, `\n`, `\r`). Strings must be well-formed UTF-8
/// and their `\u` escapes must pair surrogates properly.
///
/// Bounded against hostile input: nesting is limited to ``maximumDepth`` (so recursion is too), numbers
/// out of `Double` range are errors rather than infinities, and nothing traps on any input.
public struct JSONParser {
    /// Arrays and objects may nest this deep: `[[1]]` is depth 2.
    public static let maximumDepth = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    /// Reused for every string's decoded bytes.
    private var scratch: [UInt8] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses exactly one JSON value, optionally surrounded by whitespace.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes)
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw JSONError(offset: parser.index, reason: .trailingData)
        }
        return value
    }

    /// Parses exactly one JSON value, optionally surrounded by whitespace.
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        let result: Result<JSONValue, JSONError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONError) in try parse(buffer) }
        }
        return try result.get()
    }

    /// Parses the UTF-8 of `text` (tests and tools).
    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    // MARK: Values

    /// A value; `expected` names what may stand here, for the error message.
    private mutating func parseValue(expected: String = "a value") throws(JSONError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw JSONError(offset: index, reason: .unexpectedEnd(expected: expected)) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let (value, text) = try parseNumber()
            return .number(value, literal: text)
        case let byte:
            throw JSONError(offset: index, reason: .unexpectedByte(byte, expected: expected))
        }
    }

    private mutating func enterContainer() throws(JSONError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw JSONError(offset: index, reason: .tooDeep(limit: Self.maximumDepth))
        }
        index += 1
    }

    private mutating func parseObject() throws(JSONError) -> JSONValue {
        try enterContainer()
        var members: [(String, JSONValue)] = []
        skipWhitespace()
        if try peek(expected: "a string key or '}'") == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(members)
        }
        var expectedKey = "a string key or '}'"
        while true {
            skipWhitespace()
            guard try peek(expected: expectedKey) == UInt8(ascii: "\"") else {
                throw JSONError(offset: index, reason: .unexpectedByte(bytes[index], expected: expectedKey))
            }
            expectedKey = "a string key"
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), "':' after an object key")
            let value = try parseValue()
            members.append((key, value))
            skipWhitespace()
            switch try peek(expected: "',' or '}'") {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(members)
            case let byte:
                throw JSONError(offset: index, reason: .unexpectedByte(byte, expected: "',' or '}'"))
            }
        }
    }

    private mutating func parseArray() throws(JSONError) -> JSONValue {
        try enterContainer()
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek(expected: "a value or ']'") == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        var expectedElement = "a value or ']'"
        while true {
            elements.append(try parseValue(expected: expectedElement))
            expectedElement = "a value"
            skipWhitespace()
            switch try peek(expected: "',' or ']'") {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            case let byte:
                throw JSONError(offset: index, reason: .unexpectedByte(byte, expected: "',' or ']'"))
            }
        }
    }

    // MARK: Numbers

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, converted with correct rounding; with the text
    /// it was read from (short texts are stored inline by `String`: no allocation for ordinary numbers).
    private mutating func parseNumber() throws(JSONError) -> (Double, String) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let first = try peek(expected: "a digit")
        if first == UInt8(ascii: "0") {
            index += 1
        } else if isDigit(first) {
            skipDigits()
        } else {
            throw JSONError(offset: index, reason: .unexpectedByte(first, expected: "a digit"))
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try requireDigits(after: "'.'")
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try requireDigits(after: "an exponent")
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONError(offset: start, reason: .numberOutOfRange)
        }
        return (value, text)
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    private mutating func requireDigits(after what: String) throws(JSONError) {
        let byte = try peek(expected: "a digit after \(what)")
        guard isDigit(byte) else {
            throw JSONError(offset: index, reason: .unexpectedByte(byte, expected: "a digit after \(what)"))
        }
        skipDigits()
    }

    // MARK: Strings

    /// A string starting at the opening quote; leaves `index` after the closing quote.
    private mutating func parseString() throws(JSONError) -> String {
        index += 1
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard index < bytes.count else {
                throw JSONError(offset: index, reason: .unexpectedEnd(expected: "'\"' closing the string"))
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scratch, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape()
            case 0..<0x20:
                throw JSONError(offset: index, reason: .controlCharacterInString(byte))
            case 0x20..<0x80:
                scratch.append(byte)
                index += 1
            default:
                try copyUTF8Sequence()
            }
        }
    }

    /// Validates one multi-byte UTF-8 sequence (Unicode Table 3-7) and copies it to `scratch`.
    private mutating func copyUTF8Sequence() throws(JSONError) {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default:
            throw JSONError(offset: index, reason: .invalidUTF8)
        }
        guard bytes.count - index >= length else {
            throw JSONError(offset: index, reason: .invalidUTF8)
        }
        guard secondRange.contains(bytes[index + 1]) else {
            throw JSONError(offset: index + 1, reason: .invalidUTF8)
        }
        for i in 2..<max(2, length) where bytes[index + i] & 0xC0 != 0x80 {
            throw JSONError(offset: index + i, reason: .invalidUTF8)
        }
        scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + length)]))
        index += length
    }

    /// An escape starting at the backslash.
    private mutating func parseEscape() throws(JSONError) {
        let escapeStart = index
        index += 1
        let byte = try peek(expected: "an escaped character")
        let simple: UInt8?
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = byte
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw JSONError(offset: index, reason: .invalidEscape(byte))
        }
        if let simple {
            scratch.append(simple)
            index += 1
            return
        }
        index += 1
        let unit = try hex4()
        var scalarValue = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            // A high surrogate must be followed at once by an escaped low one.
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw JSONError(offset: escapeStart, reason: .loneSurrogate(unit)) }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONError(offset: escapeStart, reason: .loneSurrogate(unit))
            }
            scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        case 0xDC00...0xDFFF:
            throw JSONError(offset: escapeStart, reason: .loneSurrogate(unit))
        default:
            break
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw JSONError(offset: escapeStart, reason: .invalidUnicodeEscape)
        }
        scratch.append(contentsOf: scalar.utf8)
    }

    /// Four hexadecimal digits.
    private mutating func hex4() throws(JSONError) -> UInt16 {
        guard bytes.count - index >= 4 else {
            throw JSONError(offset: index, reason: .invalidUnicodeEscape)
        }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONError(offset: index, reason: .invalidUnicodeEscape)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }

    // MARK: Bytes

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// The byte at `index`, or an error naming what was expected when the input ended.
    private func peek(expected: String) throws(JSONError) -> UInt8 {
        guard index < bytes.count else { throw JSONError(offset: index, reason: .unexpectedEnd(expected: expected)) }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8, _ expected: String) throws(JSONError) {
        let found = try peek(expected: expected)
        guard found == byte else { throw JSONError(offset: index, reason: .unexpectedByte(found, expected: expected)) }
        index += 1
    }

    private mutating func expectLiteral(_ literal: String) throws(JSONError) {
        let expected = "'\(literal)'"
        for byte in literal.utf8 {
            try expect(byte, expected)
        }
    }
}

extension JSONValue {
    /// Parses one JSON value from `bytes` (see ``JSONParser``).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONError) -> JSONValue {
        try JSONParser.parse(bytes)
    }

    /// Parses one JSON value from `bytes` (see ``JSONParser``).
    public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        try JSONParser.parse(bytes)
    }
}
