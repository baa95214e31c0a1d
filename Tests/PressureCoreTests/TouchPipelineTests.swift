import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// Gestures on the prior of an uncalibrated device used as it is (learning off): pressure 0..1000, average
/// touch 450 (45% of the range), peek at 630 (1.4 average touches), pop at 900 (2.0).
final class TouchPipelineTests: XCTestCase {
    /// One finger on slot 0 pressing through `pressures`, 10 ms apart, then lifting.
    func press(_ pressures: [Int32], liftAfter ms: Int64? = nil) -> [InputEvent] {
        var s = EventScript()
        for (i, p) in pressures.enumerated() {
            s.frame(at: Int64(i) * 10) { i == 0 ? $0.slot(0, id: 1, x: 2000, y: 2000, p: p) : $0.slot(0, p: p) }
        }
        s.frame(at: ms ?? Int64(pressures.count) * 10) { $0.slot(0, id: -1) }
        return s.events
    }

    func gestures(_ events: [InputEvent], _ d: DeviceDescription = TestDevices.slotted,
                  settings: GestureSettings = GestureSettings()) throws -> [String] {
        var p = try TouchPipeline.test(d, touches: false, settings: settings)
        return p.run(events)
    }

    func testThresholdsOfAnUncalibratedDevice() throws {
        let p = try TouchPipeline.test(TestDevices.slotted)
        XCTAssertEqual(p.thresholds.peekRaw, 630)
        XCTAssertEqual(p.thresholds.popRaw, 900)
        XCTAssertEqual(p.maximumPossibleForce, 1000.0 / 450.0, accuracy: 1e-9)
        XCTAssertEqual(p.forceCapability, .available)
    }

    func testAFeatherTouchAtEightPercentNeverPeeks() throws {
        XCTAssertEqual(try gestures(press([20, 60, 80, 80, 60, 20])), [])
    }

    func testAPressSettlingBetween63And90PercentPeeksAndDismisses() throws {
        XCTAssertEqual(try gestures(press([100, 650, 850, 700, 850, 650, 100])), ["peek#1", "dismiss#1"])
    }

    func testAPressReaching95PercentPops() throws {
        XCTAssertEqual(try gestures(press([100, 650, 850, 950, 400])), ["peek#1", "pop#1"])
    }

    func testAJumpStraightToTheTopPeeksAndPopsInTheSameFrame() throws {
        var p = try TouchPipeline.test(TestDevices.slotted, touches: false)
        var frames: [[String]] = []
        CaptureReplay.run(press([0, 1000]), through: &p) { out, _ in
            frames.append(out.map { "\($0.typeName)@\($0.time.microseconds)" })
        }
        XCTAssertEqual(frames, [["peek@10000", "pop@10000"]])
    }

    func testTheGestureIsStampedWithTheFrameThatCrossed() throws {
        var p = try TouchPipeline.test(TestDevices.slotted, touches: false)
        var stamped: [Int64] = []
        CaptureReplay.run(press([0, 100, 629, 630, 700]), through: &p) { out, _ in
            stamped += out.map { $0.time.microseconds }
        }
        XCTAssertEqual(stamped, [30_000, 50_000])  // peek at the frame of 630; dismiss at the lift
    }

    func testLongPressFiresByTimerEvenWhenTheDeviceIsSilent() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 2000, y: 2000, p: 50) }
        s.frame(at: 800) { $0.slot(0, id: -1) }
        var p = try TouchPipeline.test(TestDevices.slotted, touches: false)
        var seen: [String] = []
        CaptureReplay.run(s.events, through: &p) { out, _ in seen += out.map { "\($0.typeName)@\($0.time.microseconds)" } }
        XCTAssertEqual(seen, ["longPress@500000"])
    }

    /// What the timer fired is not taken back, and nothing after it goes back in time: a frame stamped before
    /// a long press but read after it (the loop's timer came first) goes out at the press's time; a resync
    /// fires the presses due by then first, as any event does; a cancel after them comes after them.
    func testTimesNeverGoBackBehindALongPressTheTimerFired() throws {
        var p = try TouchPipeline.test(TestDevices.slotted)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 2000, y: 2000, p: 50) }
        s.frame(at: 100) { $0.slot(1, id: 2, x: 500, y: 500, p: 50) }
        for e in s.events { p.feed(e) }
        p.tick(Timestamp(microseconds: 520_000))  // the first contact's hold completed at 500 ms
        var late = EventScript()
        late.frame(at: 490) { $0.slot(0, x: 2001) }  // stamped before the deadline, read after the tick
        for e in late.events { p.feed(e) }
        p.resync(
            slots: [SlotTruth(trackingID: 1, x: 2001, y: 2000, pressure: 50), SlotTruth(trackingID: 2, x: 500, y: 500, pressure: 50)],
            at: Timestamp(microseconds: 650_000))
        p.cancelAll(at: Timestamp(microseconds: 590_000))  // the device's last event was older than the resync
        let got = p.outputs.map { e in
            let name = if case .touch(let phase) = e.kind { "touch/\(phase.rawValue)" } else { e.typeName }
            return "\(name)#\(e.contact)@\(e.time.microseconds / 1000)"
        }
        XCTAssertEqual(got, [
            "touch/began#1@0", "touch/began#2@100", "longPress#1@500", "touch/moved#1@500", "longPress#2@600",
            "touch/moved#1@650", "touch/moved#2@650", "touch/cancelled#1@650", "touch/cancelled#2@650",
        ])
    }

    func testLongPressWorksWithoutPressureAndMovingCancelsIt() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 2000, y: 2000) }
        s.frame(at: 600) { $0.slot(0, id: -1) }
        s.frame(at: 700) { $0.slot(0, id: 2, x: 2000, y: 2000) }
        s.frame(at: 750) { $0.slot(0, x: 2040) }  // 2.5 mm: beyond the 2 mm slop
        s.frame(at: 1500) { $0.slot(0, id: -1) }
        var p = try TouchPipeline.test(TestDevices.slottedWithoutPressure, touches: false)
        XCTAssertEqual(p.forceCapability, .unavailable)
        XCTAssertEqual(p.maximumPossibleForce, 0)
        XCTAssertEqual(p.run(s.events), ["longPress#1"])
    }

    func testForceTouchOffReadsUnavailableAndKeepsLongPress() throws {
        var settings = GestureSettings()
        settings.forceTouchEnabled = false
        var p = try TouchPipeline.test(TestDevices.slotted, touches: false, settings: settings)
        XCTAssertEqual(p.forceCapability, .unavailable)
        XCTAssertEqual(p.run(press(Array(repeating: 1000, count: 60))), ["longPress#1"])
    }

    /// Force turned off (`set forceTouch false`, a reload) while a contact peeks: the peek stays open, no
    /// pop follows however hard the finger presses, and it ends with the lift, in a `dismiss` whose force
    /// is 0 (force is unavailable now), as docs/gestures.md says.
    func testForceTurnedOffMidPeekEndsThePeekAtTheLiftWithForceZero() throws {
        var p = try TouchPipeline.test(TestDevices.slotted, touches: false)
        let events = press([100, 700, 1000, 1000], liftAfter: 60)
        let peeked = events.firstIndex { $0.time.microseconds == 20_000 } ?? 0
        var got: [PressureEvent] = []
        func feed(_ slice: ArraySlice<InputEvent>) {
            for e in slice {
                p.handle(e)
                got += p.outputs
                p.clearOutputs()
            }
        }
        feed(events[..<peeked])
        XCTAssertEqual(got.map(\.kind), [.gesture(.peek)])
        var off = GestureSettings()
        off.forceTouchEnabled = false
        p.apply(settings: off, calibration: ForceCalibration.uncalibrated(axis: try XCTUnwrap(TouchDevice(TestDevices.slotted).pressureAxis)))
        feed(events[peeked...])
        XCTAssertEqual(got.map(\.kind), [.gesture(.peek), .gesture(.dismiss)], "no pop once force is off")
        XCTAssertEqual(got.last?.time, Timestamp(microseconds: 60_000), "at the lift")
        XCTAssertEqual(got.last?.force, 0)
    }

    func testQuickActionsAfterTwelveMillimetresUpWhilePeeking() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 2000, y: 2000, p: 700) }
        s.frame(at: 10) { $0.slot(0, y: 1850) }  // 9.4 mm
        s.frame(at: 20) { $0.slot(0, y: 1808) }  // 12 mm
        s.frame(at: 30) { $0.slot(0, y: 1500, p: 1000) }  // no pop, no second quickActions
        s.frame(at: 40) { $0.slot(0, id: -1) }
        XCTAssertEqual(try gestures(s.events), ["peek#1", "quickActions#1", "dismiss#1"])
    }

    func testContactIDsAreNeverReusedAndVanishingDeviceDismisses() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 5, x: 1, y: 1, p: 10) }
        s.frame(at: 10) { $0.slot(0, id: -1) }
        s.frame(at: 20) { $0.slot(0, id: 5, x: 1, y: 1, p: 700) }  // same tracking id again
        var p = try TouchPipeline.test(TestDevices.slotted)
        XCTAssertEqual(p.run(s.events), [
            "began#1", "ended#1", "began#2", "peek#2", "dismiss#2", "cancelled#2",  // the capture ends mid-peek
        ])
    }

    func testTouchesCarryForceAndProgress() throws {
        var p = try TouchPipeline.test(TestDevices.slotted)
        var lines: [String] = []
        // 315 raw is 0.7 average touches, half way to peek (1.4); 810 is 1.8, two thirds of the way from
        // peek to pop (2.0); 1000 is the top, 2.2222.
        CaptureReplay.run(press([315, 810, 1000]), through: &p) { out, _ in lines += out.map(WireFormat.line) }
        XCTAssertEqual(lines, [
            #"{"type":"touch","phase":"began","time":0.000000,"device":1,"contact":1,"x":2000,"y":2000,"screenX":2000.0,"screenY":2000.0,"force":0.7,"maximumPossibleForce":2.2222,"progress":0.5}"#,
            #"{"type":"peek","time":0.010000,"device":1,"contact":1,"x":2000,"y":2000,"screenX":2000.0,"screenY":2000.0,"force":1.8,"maximumPossibleForce":2.2222}"#,
            #"{"type":"touch","phase":"moved","time":0.010000,"device":1,"contact":1,"x":2000,"y":2000,"screenX":2000.0,"screenY":2000.0,"force":1.8,"maximumPossibleForce":2.2222,"progress":0.6667}"#,
            #"{"type":"pop","time":0.020000,"device":1,"contact":1,"x":2000,"y":2000,"screenX":2000.0,"screenY":2000.0,"force":2.2222,"maximumPossibleForce":2.2222}"#,
            #"{"type":"touch","phase":"moved","time":0.020000,"device":1,"contact":1,"x":2000,"y":2000,"screenX":2000.0,"screenY":2000.0,"force":2.2222,"maximumPossibleForce":2.2222}"#,
            #"{"type":"touch","phase":"ended","time":0.030000,"device":1,"contact":1,"x":2000,"y":2000,"screenX":2000.0,"screenY":2000.0,"force":2.2222,"maximumPossibleForce":2.2222}"#,
        ])
    }

    func testSensitivityPresetsMoveTheThresholds() throws {
        // Light 1.2 / 1.7, Medium 1.4 / 2.0, Firm 1.7 / 2.0 (its 2.4 capped at 90% of the top, 2.22).
        for (preset, peek, pop) in [(Sensitivity.light, 540, 765), (.medium, 630, 900), (.firm, 765, 900)] {
            var settings = GestureSettings()
            settings.sensitivity = preset
            let p = try TouchPipeline.test(TestDevices.slotted, settings: settings)
            XCTAssertEqual(p.thresholds.peekRaw, Int32(peek), "\(preset)")
            XCTAssertEqual(p.thresholds.popRaw, Int32(pop), "\(preset)")
        }
    }

    func testPopSitsInTheHeadroomThePanelHasAndPeekNeverFollowsIt() throws {
        let device = try TouchDevice(TestDevices.slotted)
        let cal = ForceCalibration(floor: 50, average: 300, top: 800)!  // the top is 3.0 average touches
        var p = TouchPipeline(device: device, deviceID: 1, calibration: cal, settings: GestureSettings())
        XCTAssertEqual(p.thresholds.peekRaw, 400)  // 1.4 average touches, however low the top
        XCTAssertEqual(p.thresholds.popRaw, 550)   // 2.0, well inside the 3.0 there is
        XCTAssertEqual(p.run(press([100, 400, 800])), ["peek#1", "pop#1"])
    }

    func testAPanelWithNoRoomForPeekAndPopTurnsForceOffButLongPresses() throws {
        let device = try TouchDevice(TestDevices.slotted)
        let cal = ForceCalibration(floor: 0, average: 400, top: 600)!  // the top is 1.5 average touches
        var p = TouchPipeline(device: device, deviceID: 1, calibration: cal, settings: GestureSettings())
        XCTAssertEqual(p.forceCapability, .unavailable)
        XCTAssertEqual(p.forceUnavailableReason?.code, "no-headroom")
        XCTAssertEqual(p.maximumPossibleForce, 0)
        XCTAssertEqual(p.run(press(Array(repeating: 600, count: 60))), ["longPress#1"])
    }

    func testAFastHardTapPeeksAndPopsOnTheSpike() throws {
        XCTAssertEqual(try gestures(press([300, 950, 200], liftAfter: 60)), ["peek#1", "pop#1"])
    }

    func testSingleTouchResistivePanelPeeks() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.abs(AbsCode.x, 10); $0.abs(AbsCode.y, 10); $0.abs(AbsCode.pressure, 10); $0.emit(EventType.key, KeyCode.btnTouch, 1) }
        s.frame(at: 10) { $0.abs(AbsCode.pressure, 180) }  // average 115, peek 161, pop 230
        s.frame(at: 20) { $0.emit(EventType.key, KeyCode.btnTouch, 0) }
        XCTAssertEqual(try gestures(s.events, TestDevices.singleTouch), ["peek#1", "dismiss#1"])
    }
}
