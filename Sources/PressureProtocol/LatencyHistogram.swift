/// A distribution of latencies in fixed log-scale buckets (1, 2, 5 a decade, 10 µs to 5 s, then +Inf), as
/// Prometheus histograms count them: a sample goes into the first bucket whose upper bound is at or above
/// it. Recording a sample allocates nothing (the counts are made once, at ``init()``), and two histograms
/// merge by adding counts, so the daemon keeps one per device and a fleet's figures add up.
///
/// The bounds are part of the protocol (`docs/protocol.md`, `status`): a `status` reply lists each bucket's
/// own count (not cumulative; OpenMetrics text, ``cumulativeCounts``, is), last the one above 5 s.
/// Samples are whole microseconds, as the daemon's clock and event times are; a negative one (clocks that
/// disagree) counts as zero.
public struct LatencyHistogram: Hashable, Sendable {
    /// The buckets' upper bounds in microseconds, ascending; a last bucket, +Inf, holds what lies above.
    public static let upperBoundsMicroseconds: [Int64] = [
        10, 20, 50, 100, 200, 500,
        1_000, 2_000, 5_000, 10_000, 20_000, 50_000,
        100_000, 200_000, 500_000, 1_000_000, 2_000_000, 5_000_000,
    ]
    /// Buckets, +Inf included.
    public static var bucketCount: Int { upperBoundsMicroseconds.count + 1 }

    /// Each bucket's own count, +Inf last (``bucketCount`` of them).
    public private(set) var counts: [UInt64]
    /// Samples recorded.
    public private(set) var count: UInt64 = 0
    /// Their sum, in microseconds.
    public private(set) var sumMicroseconds: Int64 = 0

    /// An empty histogram.
    public init() {
        counts = Array(repeating: 0, count: Self.bucketCount)
    }

    /// A histogram with these counts and sum (a `status` reply decoded); nil unless there is one count
    /// per bucket.
    public init?(counts: [UInt64], sumMicroseconds: Int64) {
        guard counts.count == Self.bucketCount else { return nil }
        self.counts = counts
        self.sumMicroseconds = sumMicroseconds
        count = counts.reduce(0, &+)
    }

    /// The bucket a sample of `microseconds` falls in: the first whose bound is at or above it.
    public static func bucket(ofMicroseconds microseconds: Int64) -> Int {
        var i = 0
        while i < upperBoundsMicroseconds.count, microseconds > upperBoundsMicroseconds[i] { i += 1 }
        return i
    }

    /// Counts one sample.
    public mutating func record(microseconds: Int64) {
        let v = max(0, microseconds)
        counts[Self.bucket(ofMicroseconds: v)] &+= 1
        count &+= 1
        sumMicroseconds &+= v
    }

    /// Adds another histogram's samples to these.
    public mutating func merge(_ other: LatencyHistogram) {
        for i in counts.indices { counts[i] &+= other.counts[i] }
        count &+= other.count
        sumMicroseconds &+= other.sumMicroseconds
    }

    /// Samples at or below each bound, +Inf last (equal to ``count``): OpenMetrics' `_bucket` values.
    public var cumulativeCounts: [UInt64] {
        var running: UInt64 = 0
        return counts.map { c in
            running &+= c
            return running
        }
    }

    /// Where quantile `q` (0...1) lies, as far as the buckets tell: `≤ 500 µs`, `≤ 2 ms`, `> 5 s`.
    public static func quantileText(_ h: LatencyHistogram, _ q: Double) -> String {
        let rank = UInt64((Double(h.count) * q).rounded(.up))
        guard let i = h.cumulativeCounts.firstIndex(where: { $0 >= max(1, rank) }), i < upperBoundsMicroseconds.count else {
            return "> 5 s"
        }
        let us = upperBoundsMicroseconds[i]
        if us < 1_000 { return "≤ \(us) µs" }
        if us < 1_000_000 { return "≤ \(us / 1_000) ms" }
        return "≤ \(us / 1_000_000) s"
    }

    /// An upper bound in seconds as OpenMetrics' `le` label writes it: `0.00001`, `0.5`, `1.0`, `+Inf`.
    public static func boundLabel(_ bucket: Int) -> String {
        guard bucket < upperBoundsMicroseconds.count else { return "+Inf" }
        return secondsText(upperBoundsMicroseconds[bucket])
    }

    /// Microseconds as seconds, with no more decimals than it needs and at least one: `0.00002`, `2.0`.
    public static func secondsText(_ microseconds: Int64) -> String {
        let sign = microseconds < 0 ? "-" : ""
        let m = microseconds.magnitude
        var fraction = String(m % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.count > 1, fraction.last == "0" { fraction.removeLast() }
        return "\(sign)\(m / 1_000_000).\(fraction)"
    }
}

extension LatencyHistogram {
    /// `{"count":3,"sum":0.000412,"buckets":[0,1,2,0,…]}`: the sum in seconds with six decimals.
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"count":"#.utf8)
        JSONWriter.appendInteger(Int(truncatingIfNeeded: count), to: &out)
        JSONWriter.appendKey("sum", to: &out)
        WireFormat.appendSeconds(Timestamp(microseconds: sumMicroseconds), to: &out)
        JSONWriter.appendKey("buckets", to: &out)
        JSONWriter.appendIntegers(counts.lazy.map { Int(truncatingIfNeeded: $0) }, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        var counts: [UInt64] = []
        for v in try f.array("buckets") {
            guard let n = v.exactInteger, let c = UInt64(exactly: n) else {
                throw MessageDecodingError("'buckets' must hold counts")
            }
            counts.append(c)
        }
        guard let h = LatencyHistogram(counts: counts, sumMicroseconds: try f.timestamp("sum").microseconds) else {
            throw MessageDecodingError("'buckets' has \(counts.count) counts, not \(Self.bucketCount)")
        }
        guard UInt64(exactly: try f.int("count")) == h.count else {
            throw MessageDecodingError("'count' is not the sum of the buckets")
        }
        self = h
    }
}
