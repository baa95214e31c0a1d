import XCTest

@testable import PressureProtocol

/// The latency histogram: which bucket a sample falls in at and around every edge, merging, the
/// cumulative counts OpenMetrics wants, the `le` labels, and decoding what `status` sends.
final class LatencyHistogramTests: XCTestCase {
    func testASampleFallsInTheFirstBucketWhoseBoundIsAtOrAboveIt() {
        let bounds = LatencyHistogram.upperBoundsMicroseconds
        XCTAssertEqual(bounds.count + 1, LatencyHistogram.bucketCount)
        XCTAssertEqual(LatencyHistogram.bucket(ofMicroseconds: 0), 0)
        for (i, bound) in bounds.enumerated() {
            XCTAssertEqual(LatencyHistogram.bucket(ofMicroseconds: bound), i, "\(bound) µs is at the bound: inside")
            XCTAssertEqual(LatencyHistogram.bucket(ofMicroseconds: bound + 1), i + 1, "\(bound + 1) µs is above")
            if i > 0 {
                XCTAssertEqual(LatencyHistogram.bucket(ofMicroseconds: bounds[i - 1] + 1), i)
            }
        }
        XCTAssertEqual(LatencyHistogram.bucket(ofMicroseconds: 5_000_001), bounds.count, "+Inf")
        XCTAssertEqual(LatencyHistogram.bucket(ofMicroseconds: .max), bounds.count)
        XCTAssertEqual(bounds, bounds.sorted(), "ascending")
        XCTAssertEqual(Set(bounds).count, bounds.count)
    }

    func testRecordingCountsSumsAndTakesANegativeSampleAsZero() {
        var h = LatencyHistogram()
        XCTAssertEqual(h.count, 0)
        XCTAssertEqual(h.counts, Array(repeating: 0, count: LatencyHistogram.bucketCount))
        h.record(microseconds: 10)
        h.record(microseconds: 11)
        h.record(microseconds: -40)
        h.record(microseconds: 6_000_000)
        XCTAssertEqual(h.count, 4)
        XCTAssertEqual(h.sumMicroseconds, 6_000_021)
        XCTAssertEqual(h.counts[0], 2, "10 µs and the negative one")
        XCTAssertEqual(h.counts[1], 1)
        XCTAssertEqual(h.counts[LatencyHistogram.bucketCount - 1], 1)
        let cumulative = h.cumulativeCounts
        XCTAssertEqual(cumulative.first, 2)
        XCTAssertEqual(cumulative.last, h.count, "+Inf is every sample")
        XCTAssertEqual(cumulative[cumulative.count - 2], 3)
        XCTAssertEqual(cumulative, cumulative.sorted(), "cumulative counts never fall")
    }

    func testMergingAddsBucketByBucket() {
        var a = LatencyHistogram()
        var b = LatencyHistogram()
        var both = LatencyHistogram()
        for us: Int64 in [5, 150, 150, 2_500] {
            a.record(microseconds: us)
            both.record(microseconds: us)
        }
        for us: Int64 in [150, 40_000, 9_000_000] {
            b.record(microseconds: us)
            both.record(microseconds: us)
        }
        var merged = a
        merged.merge(b)
        XCTAssertEqual(merged, both)
        XCTAssertEqual(merged.count, 7)
        XCTAssertEqual(merged.counts[LatencyHistogram.bucket(ofMicroseconds: 150)], 3)
        var empty = LatencyHistogram()
        empty.merge(LatencyHistogram())
        XCTAssertEqual(empty, LatencyHistogram())
    }

    func testBoundsAreWrittenAsOpenMetricsLabels() {
        XCTAssertEqual(LatencyHistogram.boundLabel(0), "0.00001")
        XCTAssertEqual(LatencyHistogram.boundLabel(5), "0.0005")
        XCTAssertEqual(LatencyHistogram.boundLabel(15), "1.0")
        XCTAssertEqual(LatencyHistogram.boundLabel(17), "5.0")
        XCTAssertEqual(LatencyHistogram.boundLabel(18), "+Inf")
        XCTAssertEqual(LatencyHistogram.secondsText(1_234_567), "1.234567")
        XCTAssertEqual(LatencyHistogram.secondsText(0), "0.0")
        XCTAssertEqual(LatencyHistogram.secondsText(-20), "-0.00002")
    }

    func testDecodingRefusesTheWrongNumberOfBucketsOrACountThatDisagrees() throws {
        var h = LatencyHistogram()
        h.record(microseconds: 300)
        var out: [UInt8] = []
        h.append(to: &out)
        let text = String(decoding: out, as: UTF8.self)
        XCTAssertEqual(text, #"{"count":1,"sum":0.000300,"buckets":[0,0,0,0,0,1,0,0,0,0,0,0,0,0,0,0,0,0,0]}"#)
        XCTAssertEqual(try LatencyHistogram(MessageFields(try JSONParser.parse(text), what: "h")), h)
        let short = #"{"count":1,"sum":0.0003,"buckets":[1]}"#
        XCTAssertThrowsError(try LatencyHistogram(MessageFields(try JSONParser.parse(short), what: "h")))
        let zeros = Array(repeating: "0", count: LatencyHistogram.bucketCount - 1).joined(separator: ",")
        let wrongCount = #"{"count":2,"sum":0.0003,"buckets":[1,"# + zeros + "]}"
        XCTAssertThrowsError(try LatencyHistogram(MessageFields(try JSONParser.parse(wrongCount), what: "h")))
        let negative = #"{"count":-1,"sum":0.0003,"buckets":[-1,"# + zeros + "]}"
        XCTAssertThrowsError(try LatencyHistogram(MessageFields(try JSONParser.parse(negative), what: "h")))
    }

    func testTheSummarySaysWhichBucketHoldsThe99thPercentile() {
        var h = LatencyHistogram()
        for _ in 0..<99 { h.record(microseconds: 150) }
        XCTAssertEqual(LatencyHistogram.quantileText(h, 0.99), "≤ 200 µs")
        h.record(microseconds: 1_500)
        h.record(microseconds: 1_500)
        XCTAssertEqual(LatencyHistogram.quantileText(h, 0.99), "≤ 2 ms")
        h.record(microseconds: 9_000_000)
        XCTAssertEqual(LatencyHistogram.quantileText(h, 1), "> 5 s")
        let d = DeviceLatency(device: 3, node: "n", queue: h, unmeasured: 2)
        XCTAssertEqual(d.summary, "102 frames queued, mean 88410 µs, p99 ≤ 2 ms; 0 delivered; 2 unmeasured")
    }
}
