import DeviceTestSupport
import XCTest
@testable import PressureCore

/// Palms: `MT_TOOL_PALM` from the firmware, or a touch major above the palm size, on protocol B and A.
/// Single-touch panels have neither axis, so they have no palms.
final class ContactTrackerPalmTests: XCTestCase {
    func tracker(_ d: DeviceDescription, palmSize: PalmSize = TrackerSettings.defaultPalmSize) throws -> ContactTracker {
        ContactTracker(device: try TouchDevice(d), settings: TrackerSettings(palmSize: palmSize))
    }

    // MARK: Protocol B

    func testAPalmFromItsFirstFrameIsNeverReportedAndStaysAPalmUntilItEnds() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 300, tool: MTTool.palm) }
        s.frame(at: 10) { $0.slot(0, p: 500) }
        s.frame(at: 20) { $0.slot(0, tool: MTTool.finger) }  // the firmware changes its mind: still ignored
        s.frame(at: 600) { $0.slot(0, x: 900) }
        s.frame(at: 700) { $0.slot(0, id: -1) }
        s.frame(at: 800) { $0.slot(0, id: 2, x: 50, y: 50, p: 40) }  // the next contact is a finger
        var t = try tracker(TestDevices.slottedWithPalms)
        XCTAssertEqual(t.timeline(s.events), ["800 began@0"])
        XCTAssertEqual(t.diagnostics.palmsByToolType, 1)
        XCTAssertEqual(t.diagnostics.palms, 1)
    }

    func testATouchThatBecomesAPalmIsCancelledOnceAndThenIgnored() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 300) }
        s.frame(at: 10) { $0.slot(0, p: 350) }
        s.frame(at: 20) { $0.slot(0, p: 400, tool: MTTool.palm) }
        s.frame(at: 30) { $0.slot(0, p: 900) }
        s.frame(at: 40) { $0.slot(0, tool: MTTool.finger) }
        s.frame(at: 50) { $0.slot(0, id: -1) }
        var t = try tracker(TestDevices.slottedWithPalms)
        XCTAssertEqual(t.timeline(s.events), ["0 began@0", "10 moved@0", "20 cancelledAsPalm@0"])
        XCTAssertEqual(t.diagnostics.palmsByToolType, 1)
    }

    func testTheToolTypeOfASlotOutlivesItsContact() throws {
        // The kernel sends ABS_MT_TOOL_TYPE only when it changes: a palm put down again in the same slot
        // sends none, and is still a palm.
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 300, tool: MTTool.palm) }
        s.frame(at: 10) { $0.slot(0, id: -1) }
        s.frame(at: 20) { $0.slot(0, id: 2, x: 120, y: 100, p: 300) }
        s.frame(at: 30) { $0.slot(0, id: -1) }
        s.frame(at: 40) { $0.slot(0, id: 3, x: 300, y: 300, p: 30, tool: MTTool.finger) }
        var t = try tracker(TestDevices.slottedWithPalms)
        XCTAssertEqual(t.timeline(s.events), ["40 began@0"])
        XCTAssertEqual(t.diagnostics.palmsByToolType, 2)
    }

    func testAContactLargerThanThePalmSizeIsAPalm() throws {
        // 25 mm at 20 units/mm: 500 units is the largest finger, 501 a palm (strictly larger, as libinput).
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 300, major: 500) }
        s.frame(at: 10) { $0.slot(1, id: 2, x: 900, y: 900, p: 300, major: 501) }
        s.frame(at: 20) { $0.slot(0, major: 501) }
        s.frame(at: 30) { $0.slot(0, major: 100); $0.slot(1, major: 100) }
        var t = try tracker(TestDevices.slottedWithPalms)
        XCTAssertEqual(t.timeline(s.events), ["0 began@0", "20 cancelledAsPalm@0"])
        XCTAssertEqual(t.diagnostics.palmsBySize, 2)
        XCTAssertEqual(t.diagnostics.palmsByToolType, 0)

        var off = try tracker(TestDevices.slottedWithPalms, palmSize: .off)
        XCTAssertEqual(off.timeline(s.events), ["0 began@0", "10 began@1"], "a size alone is no move")
        var small = try tracker(TestDevices.slottedWithPalms, palmSize: .millimetres(5))  // 100 units
        XCTAssertEqual(small.timeline(s.events), [])
        XCTAssertEqual(small.diagnostics.palmsBySize, 2)
    }

    func testWithoutATouchMajorResolutionNoContactIsAPalmBySize() throws {
        var d = TestDevices.slottedWithPalms
        d.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 1000)
        XCTAssertNil(try TouchDevice(d).contactSizeUnitsPerMillimetre)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 300, major: 1000) }
        var t = try tracker(d)
        XCTAssertEqual(t.timeline(s.events), ["0 began@0"])
        XCTAssertEqual(try TouchDevice(TestDevices.singleTouch).contactSizeUnitsPerMillimetre, nil)
    }

    func testAFinerSurfaceResolutionReadsContactsSmaller() throws {
        // The Sharp 04dd:9681: touch major 0..255 at 1 unit/mm, surface at 4 units/mm. Its ordinary touches
        // read 22..77 units: at the surface's 4 units/mm, 5.5..19 mm; a palm of 25 mm is above 100 units.
        var d = TestDevices.slotted
        d.absInfo[AbsCode.mtPositionX] = AbsInfo(minimum: 0, maximum: 1920, resolution: 4)
        d.absInfo[AbsCode.mtPositionY] = AbsInfo(minimum: 0, maximum: 1080, resolution: 4)
        d.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 255, resolution: 1)
        XCTAssertEqual(try TouchDevice(d).contactSizeUnitsPerMillimetre, 4)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, major: 77) }
        s.frame(at: 10) { $0.slot(1, id: 2, x: 900, y: 900, major: 101) }
        var t = try tracker(d)
        XCTAssertEqual(t.timeline(s.events), ["0 began@0"])
        XCTAssertEqual(t.diagnostics.palmsBySize, 1)
    }

    func testAToolTypeTheDeviceDoesNotDeclareIsIgnored() throws {
        // libevdev passes on no event for a code the device lacks; replay must agree with the daemon.
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 300, tool: MTTool.palm, major: 1000) }
        var t = try tracker(TestDevices.slotted)
        XCTAssertEqual(t.timeline(s.events), ["0 began@0"])
    }

    func testADropForgetsThePalmSoANewContactIsSeen() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 300, tool: MTTool.palm) }
        s.ms = 5
        s.dropped()
        s.frame(at: 6) { $0.slot(0, p: 10) }
        // The palm's lift was lost in the drop: a new id (a finger, tool type sent since it changed) is new.
        s.frame(at: 10) { $0.slot(0, id: 2, x: 50, y: 50, p: 40, tool: MTTool.finger) }
        var t = try tracker(TestDevices.slottedWithPalms)
        XCTAssertEqual(t.timeline(s.events), ["10 began@0"])
    }

    func testAResyncKeepsAPalmIgnoredWhileItsIDLasts() throws {
        var s = EventScript()
        s.frame(at: 0) {
            $0.slot(0, id: 1, x: 100, y: 100, p: 300, tool: MTTool.palm)
            $0.slot(1, id: 2, x: 900, y: 900, p: 300)
        }
        // What the daemon restates before the resync: slot 1 became a palm during the drop.
        s.slot(1, tool: MTTool.palm)
        var t = try tracker(TestDevices.slottedWithPalms)
        XCTAssertEqual(t.timeline(s.events), ["0 began@1"])
        t.resync(slots: [
            SlotTruth(trackingID: 1, x: 110, y: 100, pressure: 300), SlotTruth(trackingID: 2, x: 900, y: 900, pressure: 300),
        ])
        XCTAssertEqual(t.changes.map { "\($0.phase)@\($0.index)" }, ["cancelledAsPalm@1"])
        t.resync(slots: [
            SlotTruth(trackingID: 5, x: 110, y: 100, pressure: 300), SlotTruth(trackingID: 2, x: 900, y: 900, pressure: 300),
        ])
        XCTAssertEqual(t.changes.map { "\($0.phase)@\($0.index)" }, [], "slot 0's new contact has the palm's tool type")
    }

    func testNewSettingsJudgeFromTheNextFrame() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 300, major: 600) }
        var t = try tracker(TestDevices.slottedWithPalms)
        XCTAssertEqual(t.timeline(s.events), [], "30 mm: a palm")
        var u = try tracker(TestDevices.slottedWithPalms, palmSize: .millimetres(40))
        XCTAssertEqual(u.timeline(s.events), ["0 began@0"])
        u.apply(settings: TrackerSettings(palmSize: .millimetres(25)))
        var next = EventScript()
        next.frame(at: 10) { $0.slot(0, p: 310) }
        XCTAssertEqual(u.timeline(next.events), ["10 cancelledAsPalm@0"])
        XCTAssertEqual(u.settings.palmSize, .millimetres(25))
    }

    // MARK: Protocol A

    func testProtocolAPalmsAreIgnoredForAsLongAsTheyAreListed() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.point(100, 100, tool: MTTool.palm); $0.point(5000, 5000) }
        s.frame(at: 10) { $0.point(110, 100, tool: MTTool.finger); $0.point(5010, 5000) }  // matched: still a palm
        s.frame(at: 20) { $0.point(5020, 5000, major: 251) }  // the finger grows past 25 mm: a palm
        s.frame(at: 30) { $0.point(5030, 5000, major: 10) }
        s.frame(at: 40) { $0.emit(EventType.syn, SynCode.mtReport, 0) }
        s.frame(at: 50) { $0.point(200, 200) }
        var t = try tracker(TestDevices.anonymousWithPalmsAndHover)
        XCTAssertEqual(t.timeline(s.events), ["0 began@1", "10 moved@1", "20 cancelledAsPalm@1", "50 began@0"])
        XCTAssertEqual(t.diagnostics.palmsByToolType, 1)
        XCTAssertEqual(t.diagnostics.palmsBySize, 1)
    }
}
