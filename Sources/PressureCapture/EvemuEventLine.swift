import PressureCore

/// The fast path for evemu's `E: <seconds>.<micros> <type> <code> <value>` lines, which are nearly all of a
/// capture: one pass over the bytes, no `String`, the newline found eight bytes at a time. It accepts only
/// the canonical shape and returns nil for anything else, leaving the general parser to accept or
/// reject (and word the error), so its being fast never changes what is accepted.
enum EvemuEventLine {
    /// Parses from just after `E:`; returns the event and the index after the line's newline.
    @inline(__always)
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (InputEvent, Int)? {
        guard let base = bytes.baseAddress else { return nil }
        let end = bytes.count
        var i = start
        @inline(__always) func digit(_ b: UInt8) -> Int64? {
            let d = b &- UInt8(ascii: "0")
            return d < 10 ? Int64(d) : nil
        }
        @inline(__always) func hexDigit(_ b: UInt8) -> UInt32? {
            let d = b &- UInt8(ascii: "0")
            if d < 10 { return UInt32(d) }
            let l = (b | 0x20) &- UInt8(ascii: "a")
            return l < 6 ? UInt32(l) + 10 : nil
        }
        @inline(__always) func spaces() -> Bool {
            let s = i
            while i < end, base[i] == 0x20 || base[i] == 0x09 { i += 1 }
            return i > s
        }
        guard spaces() else { return nil }
        var seconds: Int64 = 0
        var n = 0
        while i < end, let d = digit(base[i]) {
            seconds = seconds &* 10 &+ d
            i += 1
            n += 1
        }
        guard n > 0, n <= 12, i < end, base[i] == UInt8(ascii: ".") else { return nil }
        i += 1
        var micros: Int64 = 0
        n = 0
        // evemu writes `%06u`: six digits then a space, read without a loop where that is the shape.
        if i + 7 <= end, base[i + 6] == 0x20, let m = digits6(base + i) {
            micros = m
            n = 6
            i += 6
        } else {
            while i < end, let d = digit(base[i]) {
                if n < 6 { micros = micros &* 10 &+ d }
                i += 1
                n += 1
            }
        }
        guard n > 0 else { return nil }
        while n < 6 {
            micros &*= 10
            n += 1
        }
        // evemu writes type and code as `%04x %04x `: read that shape in one go, else digit by digit.
        var type: UInt32 = 0
        var code: UInt32 = 0
        if i + 11 <= end, base[i] == 0x20, base[i + 5] == 0x20, base[i + 10] == 0x20,
            let t = hex4(base + i + 1), let c = hex4(base + i + 6)
        {
            type = t
            code = c
            i += 11
        } else {
            guard spaces() else { return nil }
            n = 0
            while i < end, let h = hexDigit(base[i]) {
                type = type << 4 | h
                i += 1
                n += 1
            }
            guard n > 0, n <= 4, spaces() else { return nil }
            n = 0
            while i < end, let h = hexDigit(base[i]) {
                code = code << 4 | h
                i += 1
                n += 1
            }
            guard n > 0, n <= 4, spaces() else { return nil }
        }
        var negative = false
        if i < end, base[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        var value: Int64 = 0
        n = 0
        while i < end, let d = digit(base[i]) {
            value = value &* 10 &+ d
            i += 1
            n += 1
        }
        guard n > 0, n <= 10 else { return nil }
        if negative { value = -value }
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        // The rest of the line may only be spaces and a comment.
        _ = spaces()
        if i < end, base[i] != 0x0a {
            guard base[i] == UInt8(ascii: "#") || base[i] == 0x0d else { return nil }
            i = newline(base, from: i, end: end)
        }
        let event = InputEvent(
            time: Timestamp(microseconds: seconds &* 1_000_000 &+ micros), type: UInt16(type),
            code: UInt16(code), value: Int32(truncatingIfNeeded: value))
        return (event, i + 1)
    }

    /// Six decimal digits at `p`, or nil if any is not one.
    @inline(__always)
    static func digits6(_ p: UnsafePointer<UInt8>) -> Int64? {
        var v: Int64 = 0
        var bad: UInt8 = 0
        for k in 0..<6 {
            let d = p[k] &- UInt8(ascii: "0")
            bad |= d > 9 ? 1 : 0
            v = v &* 10 &+ Int64(d)
        }
        return bad == 0 ? v : nil
    }

    /// Four hex digits at `p`, or nil if any is not one.
    @inline(__always)
    static func hex4(_ p: UnsafePointer<UInt8>) -> UInt32? {
        var v: UInt32 = 0
        for k in 0..<4 {
            let b = p[k]
            let d = b &- UInt8(ascii: "0")
            if d < 10 {
                v = v << 4 | UInt32(d)
                continue
            }
            let l = (b | 0x20) &- UInt8(ascii: "a")
            guard l < 6 else { return nil }
            v = v << 4 | (UInt32(l) + 10)
        }
        return v
    }

    /// The index of the next `\n` at or after `from` (or `end`), eight bytes at a time.
    @inline(__always)
    static func newline(_ base: UnsafePointer<UInt8>, from: Int, end: Int) -> Int {
        var i = from
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let pattern: UInt64 = 0x0a0a_0a0a_0a0a_0a0a
        while i + 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
            let found = (word &- ones) & ~word & highs
            if found != 0 { return i + found.trailingZeroBitCount / 8 }
            i += 8
        }
        while i < end, base[i] != 0x0a { i += 1 }
        return i
    }
}
