import DeviceTestSupport
import XCTest
@testable import PressureCore

/// Touch-down hysteresis of single-touch panels without `BTN_TOUCH` (0..255: down at 30, up below 25).
final class TouchHysteresisTests: XCTestCase {
    func testDefaultsAreLibinputsTouchpadThresholds() {
        func d(_ min: Int32, _ max: Int32) -> [Int64] {
            let h = TouchHysteresis.defaults(axis: AbsInfo(minimum: min, maximum: max))
            return [h.down, h.up]
        }
        XCTAssertEqual(d(0, 255), [30, 25])  // 0.12 × 256 = 30.72, 0.10 × 256 = 25.6, truncated
        XCTAssertEqual(d(0, 1000), [120, 100])
        XCTAssertEqual(d(0, 4095), [491, 409])
        XCTAssertEqual(d(-100, 100), [-76, -80])  // truncated towards zero, as C truncates
        XCTAssertEqual(d(0, 15), [1, 1], "a few levels: above the minimum, no room for hysteresis")
        XCTAssertEqual(d(0, 1), [1, 1])
        XCTAssertEqual(d(0, 0), [1, 1], "a flat axis never touches")
        XCTAssertEqual(d(Int32.max - 1, Int32.max), [Int64(Int32.max), Int64(Int32.max)])
    }

    func testConfiguredThresholdsApplyOnlyWhenValidTogether() {
        let axis = AbsInfo(minimum: 0, maximum: 255)
        func r(_ down: Int32?, _ up: Int32?) -> [Int64] {
            let h = TouchHysteresis.resolve(TrackerSettings(touchDown: down, touchUp: up), axis: axis)
            return [h.down, h.up]
        }
        XCTAssertEqual(r(nil, nil), [30, 25])
        XCTAssertEqual(r(60, 40), [60, 40])
        XCTAssertEqual(r(60, nil), [60, 25])
        XCTAssertEqual(r(nil, 10), [30, 10])
        XCTAssertEqual(r(20, nil), [30, 25], "down not above the default up: defaults")
        XCTAssertEqual(r(40, 40), [30, 25])
        XCTAssertEqual(r(256, 40), [30, 25], "down beyond the axis")
        XCTAssertEqual(r(40, 0), [30, 25], "up at the minimum: a touch could never end")
        XCTAssertTrue(TouchHysteresis.isValid(down: 255, up: 1, axis: axis))
    }

    /// One frame per pressure, 10 ms apart, on the panel without `BTN_TOUCH`.
    func timeline(_ pressures: [Int32], tracking: TrackerSettings = TrackerSettings()) throws -> [String] {
        var s = EventScript()
        for (i, p) in pressures.enumerated() {
            s.frame(at: Int64(i) * 10) { i == 0 ? $0.single(x: 100, y: 100, p: p) : $0.single(p: p) }
        }
        var tracker = ContactTracker(device: try TouchDevice(TestDevices.singleTouchWithoutButton), settings: tracking)
        return tracker.timeline(s.events)
    }

    func testTheEdgesOfBothThresholds() throws {
        let table: [(pressures: [Int32], expected: [String], why: String)] = [
            ([29, 0], [], "below down: no touch"),
            ([30, 0], ["0 began@0", "10 ended@0"], "at down: a touch"),
            ([30, 25, 0], ["0 began@0", "10 moved@0", "20 ended@0"], "at up: still a touch"),
            ([30, 24], ["0 began@0", "10 ended@0"], "below up: the end"),
            ([40, 24, 29, 0], ["0 began@0", "10 ended@0"], "between up and down: nothing begins"),
            ([40, 24, 30], ["0 began@0", "10 ended@0", "20 began@0"], "down again: a new touch"),
        ]
        for row in table {
            XCTAssertEqual(try timeline(row.pressures), row.expected, row.why)
        }
    }

    func testAPanelWobblingAroundEitherThresholdNeverFlaps() throws {
        // Around down (30) before the touch, then around up (25) during it: one touch, one lift.
        let wobble: [Int32] = [0, 12, 27, 29, 28, 30, 27, 31, 29, 33, 28, 26, 24, 27, 29, 23, 28, 26, 29, 12, 0]
        let got = try timeline(wobble).filter { !$0.contains("moved") }
        XCTAssertEqual(got, ["50 began@0", "120 ended@0"])
        // One threshold at 30 would have begun or ended the touch at each of the 6 frames that cross it.
        let crossings = zip(wobble, wobble.dropFirst()).filter { ($0 >= 30) != ($1 >= 30) }.count
        XCTAssertEqual(crossings, 6)
    }

    /// A seeded ramp 0 → 60 → 0 over 600 frames (a tenth of a unit a frame, so it lingers around both
    /// thresholds for dozens of frames) with uniform noise of ±`noise`.
    func noisyRamp(noise: Int, seed: UInt64) -> [Int32] {
        var rng = SeededNoise(seed: seed)
        return (0..<600).map { i in
            let base = i < 300 ? Double(i) / 5 : Double(600 - i) / 5
            return Int32(max(0, min(255, base + Double(rng.next(in: -noise...noise)))))
        }
    }

    func testANoisyRampNeverFlaps() throws {
        // Noise of ±2 (4 units peak to peak) stays inside the 5 units between up and down.
        for seed: UInt64 in [1, 7, 11, 42] {
            let pressures = noisyRamp(noise: 2, seed: seed)
            let got = try timeline(pressures).filter { !$0.contains("moved") }
            let down = pressures.firstIndex { $0 >= 30 } ?? -1
            let up = pressures[down...].firstIndex { $0 < 25 } ?? -1
            XCTAssertEqual(got, ["\(down * 10) began@0", "\(up * 10) ended@0"], "seed \(seed)")
            let naive = zip(pressures, pressures.dropFirst()).filter { ($0 >= 30) != ($1 >= 30) }.count
            XCTAssertGreaterThan(naive, 2, "seed \(seed): one threshold would have flapped")
        }
    }

    func testNoiseWiderThanTheGapWantsWiderThresholds() throws {
        // ±6 of noise defeats 30/25, as it would defeat libinput's; a per-device pair 20 units apart holds.
        let pressures = noisyRamp(noise: 6, seed: 11)
        XCTAssertGreaterThan(try timeline(pressures).filter { $0.contains("began") }.count, 1)
        let wide = TrackerSettings(touchDown: 40, touchUp: 20)
        XCTAssertEqual(try timeline(pressures, tracking: wide).filter { !$0.contains("moved") }.count, 2)
    }

    func testPerDeviceThresholds() throws {
        let tracking = TrackerSettings(touchDown: 100, touchUp: 60)
        XCTAssertEqual(try timeline([99, 100, 60, 59], tracking: tracking), ["10 began@0", "20 moved@0", "30 ended@0"])
    }

    func testAfterADropTheContactIsIgnoredUntilPressureFallsBelowUp() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.single(x: 1, y: 1, p: 50) }
        s.ms = 5
        s.dropped()
        s.frame(at: 6) { $0.single(p: 51) }
        s.frame(at: 10) { $0.single(p: 26) }  // still held: above up
        s.frame(at: 20) { $0.single(p: 40) }
        s.frame(at: 30) { $0.single(p: 20) }  // lifted
        s.frame(at: 40) { $0.single(p: 35) }
        var tracker = ContactTracker(device: try TouchDevice(TestDevices.singleTouchWithoutButton))
        XCTAssertEqual(tracker.timeline(s.events), ["0 began@0", "6 cancelled@0", "40 began@0"])
    }

    func testPanelsWithBtnTouchIgnoreTheThresholds() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.single(x: 1, y: 1, p: 2, touch: 1) }
        s.frame(at: 10) { $0.single(p: 1) }
        s.frame(at: 20) { $0.single(touch: 0) }
        var tracker = ContactTracker(
            device: try TouchDevice(TestDevices.singleTouch), settings: TrackerSettings(touchDown: 100, touchUp: 60))
        XCTAssertEqual(tracker.timeline(s.events), ["0 began@0", "10 moved@0", "20 ended@0"])
    }
}

/// A small deterministic generator (a 64-bit LCG) so that noisy inputs are the same on every run.
struct SeededNoise {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(in range: ClosedRange<Int>) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let span = UInt64(range.upperBound - range.lowerBound + 1)
        return range.lowerBound + Int((state >> 33) % span)
    }
}
