/// The JSON-lines wire format apps receive (`docs/protocol.md`): one object a line, keys in a fixed
/// order, written straight into a byte buffer with no intermediate `String` (this is the hot path).
///
/// Numbers: `time` in seconds with exactly six decimals (microseconds); `force`,
/// `maximumPossibleForce` and `progress` rounded to four decimals, trailing zeros dropped.
public enum WireFormat {
    /// Appends one event as a JSON line (with its `\n`).
    ///
    /// Built in a stack buffer through a `ByteCursor` and appended in one copy, as this line, once a frame
    /// per touch, is the largest part of a frame's cost (`docs/performance.md`, "Figures behind the code").
    /// 512 bytes hold the longest line there can be (367; the tests write it); a literal, so on the stack.
    public static func append(_ e: PressureEvent, to out: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 512) { buffer in
            guard let base = buffer.baseAddress else { return }
            var w = ByteCursor(base)
            write(e, to: &w)
            out.append(contentsOf: w.written)
        }
    }

    /// The room ``write(_:into:)`` needs: the longest line there can be is 367 bytes (the tests write it).
    package static let lineCapacity = 512

    /// Writes one event as a JSON line (with its `\n`) at `start`, which has room for ``lineCapacity``
    /// bytes, and returns how many it wrote: for a caller that keeps its lines in a buffer of its own
    /// (the hub's run of a frame's `moved` lines), which then gets each line with no copy out of a stack
    /// buffer (under the software emulation the live path is measured in, that copy and its uniqueness
    /// check cost a tenth of the line's encoding, `docs/performance.md`).
    package static func write(_ e: PressureEvent, into start: UnsafeMutablePointer<UInt8>) -> Int {
        var w = ByteCursor(start)
        write(e, to: &w)
        return w.count
    }

    private static func write(_ e: PressureEvent, to w: inout ByteCursor) {
        switch e.kind {
        case .gesture(let g):
            w.text(#"{"type":""#)
            w.text(name(g))
        case .touch(let phase):
            w.text(#"{"type":"touch","phase":""#)
            w.text(name(phase))
        }
        w.text(#"","time":"#)
        writeSeconds(e.time, to: &w)
        w.text(#","device":"#)
        w.integer(Int64(e.device))
        w.text(#","contact":"#)
        w.integer(Int64(truncatingIfNeeded: e.contact))
        w.text(#","x":"#)
        w.integer(Int64(e.x))
        w.text(#","y":"#)
        w.integer(Int64(e.y))
        w.text(#","screenX":"#)
        writeDecimal(e.screenX, to: &w)
        w.text(#","screenY":"#)
        writeDecimal(e.screenY, to: &w)
        w.text(#","force":"#)
        writeDecimal(e.force, to: &w)
        w.text(#","maximumPossibleForce":"#)
        writeDecimal(e.maximumPossibleForce, to: &w)
        if let p = e.progress {
            w.text(#","progress":"#)
            writeDecimal(p, to: &w)
        }
        w.text("}\n")
    }

    /// The raw values as literals, so no `String` is read on the hot path (a test checks each against
    /// `rawValue`).
    static func name(_ g: GestureKind) -> StaticString {
        switch g {
        case .peek: return "peek"
        case .pop: return "pop"
        case .dismiss: return "dismiss"
        case .quickActions: return "quickActions"
        case .longPress: return "longPress"
        }
    }

    static func name(_ p: PressureEvent.TouchPhase) -> StaticString {
        switch p {
        case .began: return "began"
        case .moved: return "moved"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        }
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
        appendNumber(to: &out) { writeSeconds(t, to: &$0) }
    }

    /// At most 21 bytes.
    @inline(__always)
    static func writeSeconds(_ t: Timestamp, to w: inout ByteCursor) {
        var us = t.microseconds
        if us < 0 {
            w.byte(UInt8(ascii: "-"))
            us = us == Int64.min ? Int64.max : -us
        }
        w.unsigned(UInt64(us / 1_000_000))
        w.byte(UInt8(ascii: "."))
        w.padded(UInt64(us % 1_000_000), digits: 6)
    }

    public static func secondsString(_ t: Timestamp) -> String {
        var buf: [UInt8] = []
        appendSeconds(t, to: &buf)
        return String(decoding: buf, as: UTF8.self)
    }

    /// A decimal rounded to four places, at least one decimal: `1.0`, `1.3333`, `6.6667`. Non-finite
    /// values (never produced by the core) are written as 0 so the line stays valid JSON.
    public static func appendDecimal(_ value: Double, to out: inout [UInt8]) {
        appendNumber(to: &out) { writeDecimal(value, to: &$0) }
    }

    /// At most 21 bytes: a sign, 15 digits (below 9e14), a point and four decimals.
    @inline(__always)
    static func writeDecimal(_ value: Double, to w: inout ByteCursor) {
        guard value.isFinite, abs(value) < 9e14 else {
            w.text("0.0")
            return
        }
        var scaled = roundedMagnitude(abs(value) * 10_000)
        if value < 0 && scaled != 0 { w.byte(UInt8(ascii: "-")) }
        w.unsigned(scaled / 10_000)
        w.byte(UInt8(ascii: "."))
        scaled %= 10_000
        if scaled == 0 {
            w.byte(UInt8(ascii: "0"))
            return
        }
        var digits = 4
        while scaled % 10 == 0 {
            scaled /= 10
            digits -= 1
        }
        w.padded(scaled, digits: digits)
    }

    /// `v` (finite, 0 ≤ v < 2^63) rounded half away from zero, as `v.rounded()`, which on x86-64's
    /// baseline (no SSE4.1) is a call into libm, four a touch line. The truncating conversion is one
    /// instruction and `v - Double(i)` is exact (below 2^53 the integer `i` lies on `v`'s grid of
    /// representable values; above it `v` is an integer), so the result is `rounded()`'s to the bit.
    /// Through `Int64`, whose conversion is that one instruction, where `UInt64`'s has to handle 2^63
    /// and up, which `v` never reaches.
    @inline(__always)
    static func roundedMagnitude(_ v: Double) -> UInt64 {
        let i = Int64(v)
        return UInt64(truncatingIfNeeded: v - Double(i) >= 0.5 ? i &+ 1 : i)
    }

    /// `value` in decimal.
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        appendNumber(to: &out) { $0.integer(value) }
    }

    /// A number of at most 32 bytes, written as in event lines (messages other than events use these).
    @inline(__always)
    private static func appendNumber(to out: inout [UInt8], _ write: (inout ByteCursor) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            guard let base = buffer.baseAddress else { return }
            var w = ByteCursor(base)
            write(&w)
            out.append(contentsOf: w.written)
        }
    }
}
