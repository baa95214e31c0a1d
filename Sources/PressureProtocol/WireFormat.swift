/// The JSON-lines wire format apps receive (`docs/protocol.md`): one object a line, keys in a fixed
/// order, written straight into a byte buffer with no intermediate `String` (this is the hot path).
///
/// Numbers: `time` in seconds with exactly six decimals (microseconds); `force`,
/// `maximumPossibleForce` and `progress` rounded to four decimals, trailing zeros dropped.
public enum WireFormat {
    /// Appends one event as a JSON line (with its `\n`).
    public static func append(_ e: PressureEvent, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"type":""#.utf8)
        switch e.kind {
        case .gesture(let g):
            appendASCII(g.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        case .touch(let phase):
            out.append(contentsOf: #"touch","phase":""#.utf8)
            appendASCII(phase.rawValue, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(contentsOf: #","time":"#.utf8)
        appendSeconds(e.time, to: &out)
        out.append(contentsOf: #","device":"#.utf8)
        appendInteger(Int64(e.device), to: &out)
        out.append(contentsOf: #","contact":"#.utf8)
        appendInteger(Int64(truncatingIfNeeded: e.contact), to: &out)
        out.append(contentsOf: #","x":"#.utf8)
        appendInteger(Int64(e.x), to: &out)
        out.append(contentsOf: #","y":"#.utf8)
        appendInteger(Int64(e.y), to: &out)
        out.append(contentsOf: #","screenX":"#.utf8)
        appendDecimal(e.screenX, to: &out)
        out.append(contentsOf: #","screenY":"#.utf8)
        appendDecimal(e.screenY, to: &out)
        out.append(contentsOf: #","force":"#.utf8)
        appendDecimal(e.force, to: &out)
        out.append(contentsOf: #","maximumPossibleForce":"#.utf8)
        appendDecimal(e.maximumPossibleForce, to: &out)
        if let p = e.progress {
            out.append(contentsOf: #","progress":"#.utf8)
            appendDecimal(p, to: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    /// One event as a `String` (tests, tools; not the hot path).
    public static func line(_ e: PressureEvent) -> String {
        var buf: [UInt8] = []
        append(e, to: &buf)
        buf.removeLast()
        return String(decoding: buf, as: UTF8.self)
    }

    @inline(__always)
    static func appendASCII(_ s: String, to out: inout [UInt8]) {
        out.append(contentsOf: s.utf8)
    }

    /// Seconds with six decimals: `12.000175`, `-0.500000`.
    public static func appendSeconds(_ t: Timestamp, to out: inout [UInt8]) {
        var us = t.microseconds
        if us < 0 {
            out.append(UInt8(ascii: "-"))
            us = us == Int64.min ? Int64.max : -us
        }
        appendInteger(us / 1_000_000, to: &out)
        out.append(UInt8(ascii: "."))
        appendPadded(us % 1_000_000, digits: 6, to: &out)
    }

    public static func secondsString(_ t: Timestamp) -> String {
        var buf: [UInt8] = []
        appendSeconds(t, to: &buf)
        return String(decoding: buf, as: UTF8.self)
    }

    /// A decimal rounded to four places, at least one decimal: `1.0`, `1.3333`, `6.6667`. Non-finite
    /// values (never produced by the core) are written as 0 so the line stays valid JSON.
    public static func appendDecimal(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite, abs(value) < 9e14 else {
            out.append(contentsOf: "0.0".utf8)
            return
        }
        var scaled = Int64((abs(value) * 10_000).rounded())
        if value < 0 && scaled != 0 { out.append(UInt8(ascii: "-")) }
        appendInteger(scaled / 10_000, to: &out)
        out.append(UInt8(ascii: "."))
        scaled %= 10_000
        if scaled == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        var digits = 4
        while scaled % 10 == 0 {
            scaled /= 10
            digits -= 1
        }
        appendPadded(scaled, digits: digits, to: &out)
    }

    @inline(__always)
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            appendUnsigned(value.magnitude, to: &out)
        } else {
            appendUnsigned(UInt64(value), to: &out)
        }
    }

    @inline(__always)
    static func appendUnsigned(_ value: UInt64, to out: inout [UInt8]) {
        var tmp: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                  UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var v = value
        var n = 0
        withUnsafeMutableBytes(of: &tmp) { buf in
            repeat {
                buf[19 - n] = UInt8(ascii: "0") &+ UInt8(v % 10)
                v /= 10
                n += 1
            } while v != 0
            out.append(contentsOf: buf[(20 - n)...])
        }
    }

    @inline(__always)
    static func appendPadded(_ value: Int64, digits: Int, to out: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<max(1, digits) { divisor *= 10 }
        var v = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v / divisor))
            v %= divisor
            divisor /= 10
        }
    }
}
