/// Checks UTF-8 incrementally (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), so a
/// text message split across fragments is validated as it arrives and fails at the first bad byte, as
/// RFC 6455 §8.1 asks, rather than once the whole message is in.
public struct UTF8Validator: Sendable {
    /// Continuation bytes still expected for the current character.
    private var remaining: UInt8 = 0
    /// The allowed range of the next continuation byte (narrower than 80–BF right after E0, ED, F0, F4).
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    public init() {}

    /// Whether the bytes so far end on a character boundary (a message must).
    public var isAtBoundary: Bool { remaining == 0 }

    /// Feeds more bytes; false at the first byte that cannot be UTF-8 (the validator is then spent).
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            i += 1
            if remaining > 0 {
                guard b >= lower && b <= upper else { return false }
                remaining -= 1
                lower = 0x80
                upper = 0xBF
                continue
            }
            switch b {
            case 0x00...0x7F:
                continue
            case 0xC2...0xDF:
                remaining = 1
            case 0xE0:
                remaining = 2
                lower = 0xA0  // below is overlong
            case 0xE1...0xEC, 0xEE...0xEF:
                remaining = 2
            case 0xED:
                remaining = 2
                upper = 0x9F  // above is a surrogate
            case 0xF0:
                remaining = 3
                lower = 0x90  // below is overlong
            case 0xF1...0xF3:
                remaining = 3
            case 0xF4:
                remaining = 3
                upper = 0x8F  // above is past U+10FFFF
            default:
                return false  // 80–C1 (stray continuation, overlong lead) and F5–FF
            }
        }
        return true
    }

    /// Feeds more bytes (tests and small payloads).
    public mutating func feed(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { feed($0) }
    }

    /// Whether `bytes` alone are valid UTF-8.
    public static func isValid(_ bytes: [UInt8]) -> Bool {
        var v = UTF8Validator()
        return v.feed(bytes) && v.isAtBoundary
    }
}
