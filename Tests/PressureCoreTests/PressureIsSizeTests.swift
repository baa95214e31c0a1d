import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// A panel whose pressure is its contact size (issue 27, item 7: the ASUS TF201 sends `ABS_MT_PRESSURE`
/// equal to `ABS_MT_TOUCH_MAJOR` on every frame) says `pressure-is-size` after its first ordinary
/// touches and keeps long press; decided only from frames that carry both axes, so a real pressure panel,
/// a device without touch major, and a configured average keep force.
final class PressureIsSizeTests: XCTestCase {
    /// A protocol A screen declaring pressure and touch major 0..255, as the TF201's log is read.
    static var protocolA: DeviceDescription {
        var d = TestDevices.anonymous
        d.name = "Test Protocol A (size as pressure)"
        d.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 255)
        return d
    }

    /// The protocol B screen with touch major 0..1000, as its pressure.
    static var slotted: DeviceDescription {
        var d = TestDevices.slotted
        d.name = "Test MT Touchscreen (touch major)"
        d.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 1000)
        return d
    }

    /// Taps whose pressure rises 32 → 64 → 128 → 64 in four levels, as the TF201's do, with the touch
    /// major each frame that `major` gives for the pressure (nil: not sent).
    func taps(_ count: Int, from ms: Int64 = 0, major: (Int32) -> Int32?) -> EventScript {
        var s = EventScript()
        for i in 0..<count {
            let t = ms + Int64(i) * 400
            for (k, p) in [32, 64, 128, 64].enumerated() {
                s.frame(at: t + Int64(k) * 20) { $0.point(1000 + Int32(i) * 300, 2000, p: Int32(p), major: major(Int32(p))) }
            }
            s.frame(at: t + 100) { _ in }
        }
        return s
    }

    /// A still hold of 800 ms at size 64, from `ms`.
    func hold(at ms: Int64) -> EventScript {
        var s = EventScript()
        for k in 0...40 { s.frame(at: ms + Int64(k) * 20) { $0.point(5000, 5000, p: 64, major: 64) } }
        s.frame(at: ms + 820) { _ in }
        return s
    }

    func learning(_ d: DeviceDescription) throws -> TouchPipeline {
        let device = try TouchDevice(d)
        let prior = ForceCalibration.uncalibrated(axis: try XCTUnwrap(device.pressureAxis))
        return TouchPipeline(
            device: device, deviceID: 1, force: .learning(prior, nil), settings: GestureSettings(), reportsTouches: true)
    }

    func testPressureEqualToTouchMajorOnEveryFrameIsSizeAndLongPressStays() throws {
        var p = try learning(Self.protocolA)
        var forces: [Double] = []
        var longPresses: [UInt64] = []
        CaptureReplay.run(taps(8, major: { $0 }).events + hold(at: 4000).events, through: &p) { out, _ in
            forces += out.map(\.force)
            longPresses += out.filter { $0.kind == .gesture(.longPress) }.map(\.contact)
        }
        XCTAssertEqual(p.forceUnavailableReason, .pressureIsSize)
        XCTAssertEqual(p.forceUnavailableReason?.code, "pressure-is-size")
        XCTAssertEqual(p.forceCapability, .unavailable)
        XCTAssertEqual(p.force.learner?.estimate?.pressureIsSize, true)
        XCTAssertEqual(forces.filter { $0 > 0 }, [], "no force is reported while learning, nor once it is size")
        XCTAssertEqual(longPresses, [9], "the still hold after the eight taps long-presses")
    }

    func testUntilTheFirstOrdinaryTouchesAreInItIsStillLearning() throws {
        var p = try learning(Self.protocolA)
        _ = p.run(taps(7, major: { $0 }).events)
        XCTAssertEqual(p.forceUnavailableReason, .learning(touches: 7, needed: 8))
    }

    func testPressureApartFromTouchMajorIsForce() throws {
        var p = try learning(Self.protocolA)
        _ = p.run(taps(8, major: { _ in 40 }).events)
        XCTAssertEqual(p.forceCapability, .available)
        XCTAssertNil(p.forceUnavailableReason)
    }

    func testAPressurePanelWhosePressureEqualsItsMajorOnOneFrameKeepsForce() throws {
        var p = try learning(Self.protocolA)
        // Each tap's first frame reads 32 on both axes; the others do not.
        _ = p.run(taps(8, major: { $0 == 32 ? 32 : 50 }).events)
        XCTAssertEqual(p.forceCapability, .available)
    }

    func testADeviceWithoutTouchMajorNeverTrips() throws {
        var p = try learning(TestDevices.anonymous)
        _ = p.run(taps(8, major: { $0 }).events)  // the events are there, the device does not declare the axis
        XCTAssertEqual(p.forceCapability, .available)
        var q = try learning(Self.protocolA)
        _ = q.run(taps(8, major: { _ in nil }).events)  // the axis is declared but never sent
        XCTAssertEqual(q.forceCapability, .available)
    }

    func testAConfiguredAverageStillWins() throws {
        let device = try TouchDevice(Self.protocolA)
        var p = TouchPipeline(
            device: device, deviceID: 1, calibration: ForceCalibration(floor: 0, average: 64, top: 255)!,
            settings: GestureSettings())
        _ = p.run(taps(8, major: { $0 }).events)
        XCTAssertEqual(p.forceCapability, .available)
        XCTAssertEqual(p.maximumPossibleForce, 255.0 / 64, accuracy: 1e-9)
    }

    /// Protocol B sends a value only when it changes: a contact whose pressure moves while its touch major
    /// stays shows the two apart, though every frame that sent both had them equal.
    func testProtocolBOneAxisMovingAloneShowsThemApart() throws {
        func run(sendMajor: Bool) throws -> TouchPipeline {
            var p = try learning(Self.slotted)
            var s = EventScript()
            for i in 0..<8 {
                let t = Int64(i) * 400
                s.frame(at: t) { $0.slot(0, id: Int32(i + 1), x: 1000, y: 1000, p: 300 + Int32(i), major: 300 + Int32(i)) }
                s.frame(at: t + 40) { $0.slot(0, p: 450, major: sendMajor ? 450 : nil) }
                s.frame(at: t + 80) { $0.slot(0, id: -1) }
            }
            _ = p.run(s.events)
            return p
        }
        XCTAssertEqual(try run(sendMajor: true).forceUnavailableReason, .pressureIsSize)
        XCTAssertEqual(try run(sendMajor: false).forceCapability, .available)
    }

    func testOneOrdinaryContactApartClearsItWhileTheLearnerRemembersIt() throws {
        var p = try learning(Self.protocolA)
        _ = p.run(taps(8, major: { $0 }).events)
        XCTAssertEqual(p.forceUnavailableReason, .pressureIsSize)
        _ = p.run(taps(1, from: 4000, major: { _ in 40 }).events)
        XCTAssertEqual(p.forceCapability, .available)
    }

    /// The frame rule (``SizeEcho``'s table): both axes sent and equal is an echo; apart, on any frame that
    /// sent either, is latched.
    func testTheEchoOfOneFrame() {
        func see(_ e: SizeEcho, _ p: Bool, _ m: Bool, _ pv: Int32, _ mv: Int32) -> SizeEcho {
            e.seeing(pressureSent: p, majorSent: m, pressure: pv, major: mv)
        }
        XCTAssertEqual(see(.unseen, false, false, 1, 2), .unseen)
        XCTAssertEqual(see(.unseen, true, true, 64, 64), .echoed)
        XCTAssertEqual(see(.unseen, true, false, 64, 64), .unseen, "one axis alone is no echo")
        XCTAssertEqual(see(.echoed, true, false, 64, 64), .echoed)
        XCTAssertEqual(see(.echoed, true, false, 70, 64), .distinct)
        XCTAssertEqual(see(.echoed, true, true, 64, 32), .distinct)
        XCTAssertEqual(see(.distinct, true, true, 64, 64), .distinct)
    }
}
