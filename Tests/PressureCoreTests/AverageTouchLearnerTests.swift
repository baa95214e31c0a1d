import XCTest
@testable import PressureCore
import TestSupport

/// The learner's guards, each against the failure mode it answers, with the numbers it must hold
/// (`docs/gestures.md`, "Learning the average touch"). Streams are seeded: the same every run.
final class AverageTouchLearnerTests: XCTestCase {
    /// Ordinary touches on a 0..1000 panel: peaks spread around `median` (±25%), 80 ms taps.
    struct Stream {
        var rng = SplitMix64(state: 0x7A9)
        var time: Int64 = 0

        mutating func touch(
            peak: Int32, popped: Bool = false, ending: ContactSummary.Ending = .lifted, durationMs: Int64 = 80,
            moved: Bool = false, gapMs: Int64 = 700
        ) -> ContactSummary {
            let began = Timestamp(microseconds: time)
            time += durationMs * 1000
            let ended = Timestamp(microseconds: time)
            time += gapMs * 1000
            return ContactSummary(
                ending: ending, peak: peak, lowest: peak / 4, began: began, ended: ended, movedBeyondSlop: moved,
                popped: popped)
        }

        mutating func ordinary(median: Double) -> ContactSummary {
            touch(peak: Int32((median * Double.random(in: 0.75...1.25, using: &rng)).rounded()))
        }
    }

    func learner() -> AverageTouchLearner { AverageTouchLearner(floor: 0, top: 1000) }

    func testNothingIsAppliedUntilEightSamplesThenTheirMedian() {
        var l = learner()
        var s = Stream()
        for (i, peak) in [300, 420, 380, 400, 350, 410, 390].enumerated() {
            XCTAssertNil(l.observe(s.touch(peak: Int32(peak))))
            XCTAssertNil(l.estimate, "sample \(i + 1)")
            XCTAssertEqual(l.samplesToWarmUp, 7 - i)
        }
        l.observe(s.touch(peak: 405))
        XCTAssertEqual(l.estimate?.average, 400)  // median of the eight, nearest rank
        XCTAssertEqual(l.estimate?.samples, 8)
    }

    func testWhatIsNotAnOrdinaryTouchIsRefused() {
        var l = learner()
        var s = Stream()
        XCTAssertEqual(l.observe(s.touch(peak: 400, ending: .cancelled)), .cancelled)
        XCTAssertEqual(l.observe(s.touch(peak: 400, ending: .palm)), .palm)
        XCTAssertEqual(l.observe(s.touch(peak: 400, durationMs: 600)), .stationaryHold)
        XCTAssertNil(l.observe(s.touch(peak: 400, durationMs: 600, moved: true)), "a long drag is ordinary")
        XCTAssertEqual(l.observe(s.touch(peak: 10)), .graze, "1% of the range")
        XCTAssertEqual(l.observe(s.touch(peak: 900, popped: true)), .rarePop)
        XCTAssertEqual(l.accepted, 1)
    }

    /// The first 20 touches are hard presses (twice the ordinary median): the estimate overshoots, in the
    /// safe direction (ordinary touches then peek less, not more), and is back within 5% by touch 100.
    func testAFirstBurstOfHardPressesIsForgotten() {
        var l = learner()
        var s = Stream()
        for _ in 0..<20 { l.observe(s.ordinary(median: 800)) }
        let overshoot = l.estimate?.average ?? 0
        XCTAssertGreaterThan(overshoot, 600)
        for _ in 20..<100 {
            l.observe(s.ordinary(median: 400))
            XCTAssertGreaterThanOrEqual(l.estimate?.average ?? 0, 380, "never below the ordinary median meanwhile")
        }
        XCTAssertEqual(l.estimate?.average ?? 0, 400, accuracy: 400 * 0.05)
    }

    /// 150 light touches (0.3 of the average) after learning: refused, so the average holds within 2%.
    /// Without the guard the median would fall to the flood's and every ordinary touch would peek.
    func testAFloodOfLightTouchesCannotDragTheAverageDown() {
        var l = learner()
        var s = Stream()
        for _ in 0..<100 { l.observe(s.ordinary(median: 400)) }
        let learned = l.estimate?.average ?? 0
        var refused = 0
        for _ in 0..<150 where l.observe(s.ordinary(median: 120)) == .lightFlood { refused += 1 }
        XCTAssertGreaterThan(refused, 140)
        XCTAssertEqual(l.estimate?.average ?? 0, learned, accuracy: learned * 0.02)
    }

    /// A population that really is lighter (0.6 of the average): within a day of input time the average
    /// falls by at most 10%; after several days it has followed.
    func testSlowDriftDownIsCappedPerDay() {
        var l = learner()
        var s = Stream()
        for _ in 0..<100 { l.observe(s.ordinary(median: 500)) }
        let learned = l.estimate?.average ?? 0
        for _ in 0..<1000 { l.observe(s.ordinary(median: 300)) }  // about 13 minutes of touches
        XCTAssertGreaterThanOrEqual(l.estimate?.average ?? 0, learned * 0.9 - 0.5)
        for day in 1...6 {
            s.time += 86_400_000_000
            for _ in 0..<500 { l.observe(s.ordinary(median: 300)) }
            XCTAssertGreaterThanOrEqual(l.estimate?.average ?? 0, learned * pow(0.9, Double(day + 1)) - 1, "day \(day)")
        }
        XCTAssertEqual(l.estimate?.average ?? 0, 300, accuracy: 300 * 0.05)
    }

    /// Pressure creeping up 1% a touch for 150 touches: the estimate follows at most 1% a sample once the
    /// window is full (a denial of force, the safe direction), and comes back down only slowly.
    func testCreepUpIsBoundedPerSample() {
        var l = learner()
        var s = Stream()
        for _ in 0..<100 { l.observe(s.touch(peak: 300)) }
        var peak = 300.0
        var previous = l.estimate?.average ?? 0
        for _ in 0..<150 {
            peak *= 1.01
            l.observe(s.touch(peak: Int32(min(peak, 1000))))
            let now = l.estimate?.average ?? 0
            XCTAssertLessThanOrEqual(now, previous * 1.01 + 1e-9)
            previous = now
        }
        XCTAssertGreaterThan(previous, 300 * 1.5)
    }

    /// Deliberate pops are left out while rare; where most touches pop (a start far too sensitive), they
    /// are ordinary touches after all and are taken, so the estimate cannot lock itself in.
    func testPopsAreRefusedOnlyWhileRare() {
        var l = learner()
        var s = Stream()
        for i in 0..<64 { l.observe(s.touch(peak: 400, popped: i % 10 == 0)) }
        XCTAssertEqual(l.accepted, 64 - 7)
        var taken = 0
        for _ in 0..<40 where l.observe(s.touch(peak: 420, popped: true)) == nil { taken += 1 }
        XCTAssertGreaterThan(taken, 25, "once a fifth of the last 32 contacts popped, pops count")
    }

    func testAPanelThatReportsAConstantIsFlat() {
        var l = learner()
        var s = Stream()
        for _ in 0..<10 {
            let t = s.touch(peak: 127)
            l.observe(ContactSummary(ending: .lifted, peak: 127, lowest: 127, began: t.began, ended: t.ended, movedBeyondSlop: false))
        }
        XCTAssertEqual(l.estimate?.flat, true)
        var varied = learner()
        for _ in 0..<10 { varied.observe(s.touch(peak: 127)) }
        XCTAssertEqual(varied.estimate?.flat, false)
    }

    func testResetForgetsEverything() {
        var l = learner()
        var s = Stream()
        for _ in 0..<20 { l.observe(s.ordinary(median: 400)) }
        l.reset()
        XCTAssertNil(l.estimate)
        XCTAssertEqual(l.accepted, 0)
        XCTAssertEqual(l.samplesToWarmUp, 8)
    }

    func testOrderStatisticsAreNearestRank() {
        let s = AverageTouchLearner.orderStatistics([5, 1, 4, 2, 3, 9, 8, 7, 6, 10])
        XCTAssertEqual([s.median, s.q10, s.q25, s.q75], [6, 2, 3, 8])
        XCTAssertEqual(AverageTouchLearner.orderStatistics([]), .init())
    }
}
