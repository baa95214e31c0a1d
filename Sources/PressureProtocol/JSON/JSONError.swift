/// Why bytes are not JSON: what is wrong, and the byte offset where it was found.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// The input ended where `expected` was needed (nothing at all, an open string or container…).
        case unexpectedEnd(expected: String)
        /// A byte that cannot start or continue what `expected` describes.
        case unexpectedByte(UInt8, expected: String)
        /// A complete value followed by something other than whitespace.
        case trailingData
        /// Arrays and objects nested deeper than ``JSONParser/maximumDepth``.
        case tooDeep(limit: Int)
        /// A control character (below U+0020) written raw inside a string.
        case controlCharacterInString(UInt8)
        /// A backslash followed by something other than `"\/bfnrtu`.
        case invalidEscape(UInt8)
        /// `\u` not followed by four hexadecimal digits.
        case invalidUnicodeEscape
        /// A `\uD800`–`\uDFFF` escape that is not half of a high-then-low surrogate pair.
        case loneSurrogate(UInt16)
        /// Bytes that are not well-formed UTF-8 (overlong forms, encoded surrogates, stray continuation
        /// bytes, truncated sequences, code points past U+10FFFF).
        case invalidUTF8
        /// A number whose magnitude does not fit a `Double` (`1e400`).
        case numberOutOfRange
    }

    /// Offset of the offending byte from the start of the input (the input's length when it ended early).
    public var offset: Int
    public var reason: Reason

    public init(offset: Int, reason: Reason) {
        self.offset = offset
        self.reason = reason
    }

    /// What is wrong, without the offset.
    public var message: String {
        switch reason {
        case .unexpectedEnd(let expected):
            return "unexpected end of input, expected \(expected)"
        case .unexpectedByte(let byte, let expected):
            return "unexpected \(Self.describe(byte)), expected \(expected)"
        case .trailingData:
            return "unexpected data after the JSON value"
        case .tooDeep(let limit):
            return "arrays and objects nested more than \(limit) deep"
        case .controlCharacterInString(let byte):
            return "unescaped control character \(Self.describe(byte)) in a string"
        case .invalidEscape(let byte):
            return "invalid escape '\\' followed by \(Self.describe(byte))"
        case .invalidUnicodeEscape:
            return "'\\u' must be followed by four hexadecimal digits"
        case .loneSurrogate(let unit):
            return "lone surrogate \\u\(Self.hex(unit)) (a surrogate pair needs a high then a low half)"
        case .invalidUTF8:
            return "invalid UTF-8"
        case .numberOutOfRange:
            return "number too large"
        }
    }

    public var description: String { "byte \(offset): \(message)" }

    /// `'x'` for printable ASCII, `byte 0x1B` otherwise.
    static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F {
            return "'" + String(UnicodeScalar(byte)) + "'"
        }
        return "byte 0x" + hex(UInt16(byte), digits: 2)
    }

    static func hex(_ value: UInt16, digits: Int = 4) -> String {
        let s = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - s.count)) + s
    }
}
