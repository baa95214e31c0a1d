/// A write position in a fixed buffer the caller has sized for everything it will write: the encoder of
/// event lines writes each byte through it instead of `Array.append`, which checks uniqueness and
/// capacity for every byte and goes through `String`'s UTF-8 copy for every key, on the line that is most
/// of a frame's cost.
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

    /// The digits are counted first (by comparison, not division) and written from the last, in place,
    /// two at a time from a table: half the divisions, no scratch buffer and no copy, divisions being the
    /// dearest part of writing a line. Up to four digits (coordinates, contacts, most seconds and the
    /// integer parts of decimals) are told by unrolled comparisons, wider numbers counted on by a loop.
    @inline(__always)
    mutating func unsigned(_ value: UInt64) {
        var digits: Int
        if value < 10_000 {
            digits = value < 100 ? (value < 10 ? 1 : 2) : (value < 1000 ? 3 : 4)
        } else {
            digits = 5
            var power: UInt64 = 100_000
            while digits < 20 && value >= power {
                digits &+= 1
                power &*= 10
            }
        }
        writeDigits(value, digits)
    }

    /// `value` (below 10^digits) with exactly `digits` digits, zeros in front.
    @inline(__always)
    mutating func padded(_ value: UInt64, digits: Int) {
        writeDigits(value, digits)
    }

    /// `value`, below 10^digits, in exactly `digits` digits at the cursor, zeros in front. What is left
    /// after the pairs is then one digit, written as it is (no division by ten for it).
    @inline(__always)
    private mutating func writeDigits(_ value: UInt64, _ digits: Int) {
        let pairs = Self.pairs.utf8Start
        var v = value
        var at = count &+ digits
        while at &- count >= 2 {
            let r = Int(truncatingIfNeeded: v % 100) &* 2
            v /= 100
            at &-= 2
            base[at] = pairs[r]
            base[at &+ 1] = pairs[r &+ 1]
        }
        if at > count {
            base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)
        }
        count &+= digits
    }

    /// `00` to `99`, each pair's two digits.
    @inline(__always)
    private static var pairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }
}
