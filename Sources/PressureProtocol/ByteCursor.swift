/// A write position in a fixed buffer the caller has sized for everything it will write: the encoder of
/// event lines writes each byte through it instead of `Array.append`, which checks uniqueness and
/// capacity for every byte and goes through `String`'s UTF-8 copy for every key (callgrind: about 5,200
/// instructions a touch line that way, over half of a frame's cost with one touch subscriber).
///
/// There is no bounds check: a writer states its bound (`WireFormat.append` its 512 bytes) and the tests write
/// the widest line there is.
struct ByteCursor {
    private let base: UnsafeMutablePointer<UInt8>
    /// Bytes written so far.
    private(set) var count = 0

    init(_ base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    /// What was written.
    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    mutating func byte(_ b: UInt8) {
        base[count] = b
        count &+= 1
    }

    /// A literal's bytes (keys and names are `StaticString`s: their UTF-8 is in the binary, no copy out of
    /// a `String`).
    @inline(__always)
    mutating func text(_ s: StaticString) {
        let n = s.utf8CodeUnitCount
        (base + count).update(from: s.utf8Start, count: n)
        count &+= n
    }

    /// `value` in decimal, a `-` before it when negative.
    @inline(__always)
    mutating func integer(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        unsigned(value.magnitude)
    }

    /// The digits are counted first and written from the last, in place: no scratch buffer and no copy.
    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        var digits = 1
        var rest = value / 10
        while rest != 0 {
            digits &+= 1
            rest /= 10
        }
        var v = value
        var at = count &+ digits
        repeat {
            at &-= 1
            base[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        } while v != 0
        count &+= digits
    }

    /// `value` (non-negative, below 10^digits) with exactly `digits` digits, zeros in front.
    @inline(__always)
    mutating func padded(_ value: UInt64, digits: Int) {
        var v = value
        var at = count &+ digits
        while at > count {
            at &-= 1
            base[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        }
        count &+= digits
    }
}
