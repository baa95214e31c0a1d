import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// How a device's force follows what it learns: where the average comes from, that thresholds never move
/// under a finger, when apps are told, the threshold rule's numbers, and the saved state.
final class ForceModelTests: XCTestCase {
    let axis = AbsInfo(minimum: 0, maximum: 1000)
    var prior: ForceCalibration { ForceCalibration.uncalibrated(axis: axis) }

    /// A tap of `peak` at `ms`, 80 ms long, in slot `slot` (tracking id `id`).
    func tap(_ s: inout EventScript, at ms: Int64, id: Int32, peak: Int32, slot: Int32 = 0) {
        s.frame(at: ms) { $0.slot(slot, id: id, x: 1000 + id, y: 1000, p: peak / 2) }
        s.frame(at: ms + 40) { $0.slot(slot, p: peak) }
        s.frame(at: ms + 80) { $0.slot(slot, id: -1) }
    }

    func learning() throws -> TouchPipeline {
        try TouchPipeline(
            device: TouchDevice(TestDevices.slotted), deviceID: 1, force: .learning(prior, nil),
            settings: GestureSettings(), reportsTouches: true)
    }

    func testTheSetupFollowsTheConfigurationThenLearningThenThePrior() throws {
        let device = try TouchDevice(TestDevices.slotted)
        let configured = try Configuration.parse("[x]\nMatchName=Test*\nPressureAverage=300\n", file: "c")
            .calibration(for: device.description, pressureAxis: axis)
        XCTAssertEqual(ForceModel.Setup.resolve(configured, settings: GestureSettings()),
                       .configured(ForceCalibration(floor: 0, average: 300, top: 1000)!))
        // A section that sets only the top still learns the average, within that top.
        let topOnly = try Configuration.parse("[x]\nMatchName=Test*\nPressureTop=900\n", file: "c")
            .calibration(for: device.description, pressureAxis: axis)
        XCTAssertEqual(ForceModel.Setup.resolve(topOnly, settings: GestureSettings()),
                       .learning(ForceCalibration(floor: 0, average: 450, top: 900)!, nil))
        var off = GestureSettings()
        off.learnAverageTouch = false
        let none = try Configuration().calibration(for: device.description, pressureAxis: axis)
        XCTAssertEqual(ForceModel.Setup.resolve(none, settings: off), .prior(prior))
        XCTAssertEqual(ForceModel.Setup.resolve(nil, settings: GestureSettings()), .none)
    }

    func testForceIsUnavailableUntilEightOrdinaryTouchesThenAppsAreTold() throws {
        var p = try learning()
        XCTAssertEqual(p.forceUnavailableReason, .learning(touches: 0, needed: 8))
        var s = EventScript()
        for i in 0..<8 { tap(&s, at: Int64(i) * 300, id: Int32(i + 1), peak: 400) }
        var announced: [Double] = []
        CaptureReplay.run(s.events, through: &p, deliver: { _, _ in }, announce: { announced.append($0.maximumPossibleForce) })
        XCTAssertEqual(p.forceCapability, .available)
        XCTAssertEqual(announced, [2.5], "once, when the eighth touch lifted: 1000 / 400")
        XCTAssertEqual(p.thresholds.peekRaw, 560)  // 1.4 × 400: the taps are all alike, no spread to add
    }

    func testWhatIsLearnedNeverMovesAThresholdUnderAFinger() throws {
        var p = try learning()
        var s = EventScript()
        // A finger rests in slot 1 from the start; the eight taps in slot 0 come and go beside it.
        s.frame(at: 0) { $0.slot(1, id: 100, x: 3000, y: 3000, p: 50) }
        for i in 0..<8 { tap(&s, at: 100 + Int64(i) * 300, id: Int32(i + 1), peak: 400) }
        // Fed as a device delivers them (CaptureReplay would cancel the resting finger at the end).
        for e in s.events { p.feed(e) }
        XCTAssertEqual(p.forceUnavailableReason, .learning(touches: 8, needed: 8), "learned, not applied")
        XCTAssertNotNil(p.force.learner?.estimate)
        XCTAssertFalse(p.deviceChanged)
        var lift = EventScript()
        lift.frame(at: 3000) { $0.slot(1, id: -1) }
        for e in lift.events { p.feed(e) }
        XCTAssertEqual(p.forceCapability, .available, "applied once no finger is down")
        XCTAssertTrue(p.deviceChanged, "and announced then")
    }

    func testSmallChangesAreNotAnnouncedAndBigOnesAtMostOnceASecond() throws {
        var m = ForceModel(.learning(prior, nil), settings: GestureSettings())
        var time: Int64 = 0
        func applyAndAsk() -> Bool {
            _ = m.applyLearned()
            return m.announcementDue(at: Timestamp(microseconds: time))
        }
        func touch(_ peak: Int32) {
            m.contactEnded(ContactSummary(
                ending: .lifted, peak: peak, lowest: 10, began: Timestamp(microseconds: time),
                ended: Timestamp(microseconds: time + 40_000), movedBeyondSlop: false))
            time += 50_000
        }
        for _ in 0..<7 { touch(400) }
        XCTAssertFalse(applyAndAsk())
        touch(400)
        XCTAssertTrue(applyAndAsk(), "available now")
        touch(402)  // the median does not move: nothing to say
        XCTAssertFalse(applyAndAsk())
        for _ in 0..<12 { touch(500) }  // the median moves up by a quarter, within a second of the last word
        XCTAssertFalse(applyAndAsk(), "at most once a second")
        time += 1_000_000
        XCTAssertTrue(applyAndAsk())
        XCTAssertFalse(m.announcementDue(at: Timestamp(microseconds: time + 2_000_000)), "told already")
    }

    func testResetGoesBackToLearning() throws {
        var p = try learning()
        var s = EventScript()
        for i in 0..<8 { tap(&s, at: Int64(i) * 300, id: Int32(i + 1), peak: 400) }
        CaptureReplay.run(s.events, through: &p) { _, _ in }
        XCTAssertEqual(p.forceCapability, .available)
        XCTAssertTrue(p.resetLearning())
        XCTAssertEqual(p.forceUnavailableReason, .learning(touches: 0, needed: 8))
        var configured = try TouchPipeline(
            device: TouchDevice(TestDevices.slotted), deviceID: 1, calibration: prior, settings: GestureSettings())
        XCTAssertFalse(configured.resetLearning(), "a configured average has nothing to forget")
    }

    /// The rule's numbers (docs/gestures.md, "The thresholds"), and the bug it replaced: with the top only
    /// 1.69 average touches up, peek used to be scaled down to 0.45 average touches.
    func testTheThresholdRule() {
        XCTAssertEqual(try ThresholdRule.forces(headroom: 2.5, spread: nil, sensitivity: .medium).get(),
                       .init(peek: 1.4, pop: 2.0))
        XCTAssertEqual(try ThresholdRule.forces(headroom: 2.5, spread: nil, sensitivity: .light).get(),
                       .init(peek: 1.2, pop: 1.7))
        let firm = try? ThresholdRule.forces(headroom: 2.5, spread: nil, sensitivity: .firm).get()
        XCTAssertEqual(firm?.peek ?? 0, 1.7, accuracy: 1e-9)
        XCTAssertEqual(firm?.pop ?? 0, 2.25, accuracy: 1e-9, "2.4 capped at 90% of the top")
        // A top 1.69 average touches up: peek stays above ordinary touches, pop fits under the top.
        let tight = try? ThresholdRule.forces(headroom: 1.72, spread: nil, sensitivity: .medium).get()
        XCTAssertEqual(tight?.peek ?? 0, 1.4, accuracy: 1e-9)
        XCTAssertEqual(tight?.pop ?? 0, 0.9 * 1.72, accuracy: 1e-9)
        XCTAssertEqual(ThresholdRule.forces(headroom: 1.69, spread: nil, sensitivity: .medium),
                       .failure(.noHeadroom(top: 1.69, needed: 1.1 * 1.4 / 0.9)))
        // Firm gives way to fit rather than turn force off; never below Medium's peek.
        let firmTight = try? ThresholdRule.forces(headroom: 1.8, spread: nil, sensitivity: .firm).get()
        XCTAssertEqual(firmTight?.peek ?? 0, 0.9 * 1.8 / 1.1, accuracy: 1e-9)
        // A wide learned spread raises peek above the tail (FlatFrog's: q10 0.61, interquartile 0.29 of m).
        let wide = ThresholdRule.Spread(lowerDecile: 0.61, interquartile: 0.29)
        XCTAssertEqual(ThresholdRule.peek(.of(.medium), spread: wide), 1.2 * (2 - 0.61), accuracy: 1e-9)
        XCTAssertEqual(ThresholdRule.peek(.of(.medium), spread: .init(lowerDecile: 0.95, interquartile: 0.6)),
                       1 + 1.5 * 0.6, accuracy: 1e-9)
    }

    func testPanelsWithoutUsablePressureSayWhy() throws {
        func outcome(_ setup: ForceModel.Setup) -> ForceUnavailableReason? {
            ForceModel(setup, settings: GestureSettings()).unavailableReason
        }
        XCTAssertEqual(outcome(.configured(ForceCalibration(floor: 0, average: 4, top: 31)!)), .tooFewLevels(levels: 4))
        XCTAssertEqual(outcome(.configured(ForceCalibration(floor: 0, average: 200, top: 255)!))?.code, "no-headroom")
        var off = GestureSettings()
        off.forceTouchEnabled = false
        XCTAssertEqual(ForceModel(.learning(prior, nil), settings: off).unavailableReason, .turnedOff)
        XCTAssertEqual(outcome(.none), .noPressure)
    }
}
