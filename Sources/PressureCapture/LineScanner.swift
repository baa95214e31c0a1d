import PressureCore

/// A cursor over one line of bytes, for the capture readers' hand-written parsers. Parsing bytes, not
/// `String`s, keeps reading a two-million-event capture fast; every read is bounds-checked and every
/// number overflow-checked, so no input can trap.
struct LineScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position: Int
    let end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) {
        self.bytes = bytes
        self.position = start
        self.end = end
    }

    var atEnd: Bool { position >= end }

    var current: UInt8? { position < end ? bytes[position] : nil }

    @inline(__always)
    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0d }

    @inline(__always)
    mutating func skipSpaces() {
        while position < end, Self.isSpace(bytes[position]) { position += 1 }
    }

    /// True when only spaces, or a `#` comment, remain.
    mutating func atEndOrComment() -> Bool {
        skipSpaces()
        return position >= end || bytes[position] == UInt8(ascii: "#")
    }

    /// Consumes `byte` if it comes next.
    @inline(__always)
    mutating func take(_ byte: UInt8) -> Bool {
        if position < end, bytes[position] == byte {
            position += 1
            return true
        }
        return false
    }

    /// Consumes `word` if the bytes from here spell it exactly.
    @inline(__always)
    mutating func take(word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard position + n <= end else { return false }
        let p = word.utf8Start
        for k in 0..<n where bytes[position + k] != p[k] { return false }
        position += n
        return true
    }

    /// Consumes at least one space; false where none comes next.
    @inline(__always)
    mutating func takeSpaces() -> Bool {
        let start = position
        skipSpaces()
        return position > start
    }

    /// Consumes any spaces, then `byte` if it comes next.
    @inline(__always)
    mutating func takeSpacesThen(_ byte: UInt8) -> Bool {
        skipSpaces()
        return take(byte)
    }

    /// The next run of non-space bytes (empty at the end of the line), consumed.
    mutating func word() -> Range<Int> {
        skipSpaces()
        let start = position
        while position < end, !Self.isSpace(bytes[position]) { position += 1 }
        return start..<position
    }

    /// An unsigned hexadecimal number (an optional `0x` is accepted), at most `limit`.
    @inline(__always)
    mutating func hex(limit: UInt64) -> UInt64? {
        skipSpaces()
        if position + 1 < end, bytes[position] == UInt8(ascii: "0"),
            bytes[position + 1] | 0x20 == UInt8(ascii: "x")
        {
            position += 2
        }
        let start = position
        var value: UInt64 = 0
        while position < end {
            let b = bytes[position]
            let digit: UInt64
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(b &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(b &- UInt8(ascii: "a") &+ 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt64(b &- UInt8(ascii: "A") &+ 10)
            default: return position > start && value <= limit ? value : nil
            }
            value = value &* 16 &+ digit
            if value > limit { return nil }
            position += 1
        }
        return position > start ? value : nil
    }

    /// A signed decimal number within `range`.
    @inline(__always)
    mutating func decimal(in range: ClosedRange<Int64>) -> Int64? {
        skipSpaces()
        var negative = false
        if position < end, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        } else if position < end, bytes[position] == UInt8(ascii: "+") {
            position += 1
        }
        let start = position
        var value: Int64 = 0
        while position < end {
            let b = bytes[position]
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { break }
            // 19 digits fit; anything that long is out of every range we accept anyway.
            guard position - start < 18 else { return nil }
            value = value &* 10 &+ Int64(b &- UInt8(ascii: "0"))
            position += 1
        }
        guard position > start else { return nil }
        if position < end, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: "#"),
            bytes[position] != UInt8(ascii: ","), bytes[position] != UInt8(ascii: "]"),
            bytes[position] != UInt8(ascii: ".")
        {
            return nil
        }
        let signed = negative ? -value : value
        return range.contains(signed) ? signed : nil
    }

    /// A timestamp `seconds.fraction`; the fraction is read to microseconds (more digits are dropped).
    mutating func timestamp() -> Timestamp? {
        guard let seconds = decimal(in: 0...Int64(1) << 40) else { return nil }
        var micros: Int64 = 0
        if take(UInt8(ascii: ".")) {
            var digits = 0
            while position < end {
                let b = bytes[position]
                guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { break }
                if digits < 6 { micros = micros * 10 + Int64(b &- UInt8(ascii: "0")) }
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            while digits < 6 {
                micros *= 10
                digits += 1
            }
        }
        return Timestamp(seconds: seconds, microseconds: micros)
    }

    /// The rest of the line with surrounding spaces removed.
    mutating func rest() -> String {
        skipSpaces()
        var last = end
        while last > position, Self.isSpace(bytes[last - 1]) { last -= 1 }
        let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<last]), as: UTF8.self)
        position = end
        return s
    }

    /// Where the line that begins at `start` ends (its `\n`, or the end of the bytes).
    @inline(__always)
    static func endOfLine(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        return EvemuEventLine.newline(base, from: start, end: bytes.count)
    }

    /// Whether `test` holds for some line of `bytes` (each given as a scanner at the line's start).
    static func anyLine(of bytes: UnsafeBufferPointer<UInt8>, _ test: (inout LineScanner) -> Bool) -> Bool {
        var lineStart = 0
        while lineStart < bytes.count {
            let lineEnd = endOfLine(bytes, from: lineStart)
            var s = LineScanner(bytes, from: lineStart, to: lineEnd)
            if test(&s) { return true }
            lineStart = lineEnd + 1
        }
        return false
    }

    /// The rest of the line without its surrounding spaces, and without the double quotes around it if it
    /// has them (`"Elan Touchscreen"`).
    mutating func restUnquoted() -> String {
        let text = rest()
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return text }
        return String(text.dropFirst().dropLast())
    }

    /// The whole line, shortened for an error message.
    func excerpt(from start: Int) -> String {
        let stop = min(end, start + 60)
        let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<stop]), as: UTF8.self)
        return stop < end ? s + "…" : s
    }
}
