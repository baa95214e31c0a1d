import DeviceTestSupport
import XCTest
@testable import PressureCore

/// Hovering: in range but not touching is not a touch, on protocol B, A and single touch.
final class ContactTrackerHoverTests: XCTestCase {
    /// What hid-multitouch sends for a device with the hovering quirk: a tracking id as soon as the finger is
    /// in range, `ABS_MT_DISTANCE` 1 while its tip is up, 0 once it touches (`mt_process_slot`).
    func testAHoveringContactBeginsWhenItLandsAndEndsWhenItRises() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 0, distance: 1) }
        s.frame(at: 10) { $0.slot(0, x: 120) }  // moving in the air
        s.frame(at: 20) { $0.slot(0, p: 40, distance: 0) }
        s.frame(at: 30) { $0.slot(0, p: 80) }
        s.frame(at: 40) { $0.slot(0, p: 0, distance: 1) }  // back in the air: a lift
        s.frame(at: 50) { $0.slot(0, x: 200) }
        s.frame(at: 60) { $0.slot(0, p: 30, distance: 0) }  // lands again: a new touch
        s.frame(at: 70) { $0.slot(0, id: -1) }
        var t = ContactTracker(device: try TouchDevice(TestDevices.slottedHovering))
        XCTAssertEqual(t.timeline(s.events), ["20 began@0", "30 moved@0", "40 ended@0", "60 began@0", "70 ended@0"])
    }

    func testAContactThatOnlyHoversIsNeverReported() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, distance: 1) }
        s.frame(at: 600) { $0.slot(0, x: 140) }
        s.frame(at: 700) { $0.slot(0, id: -1) }
        // The next contact in the slot sends no distance: still 1, so it hovers too (the kernel repeats
        // only changes).
        s.frame(at: 800) { $0.slot(0, id: 2, x: 300, y: 300) }
        s.frame(at: 900) { $0.slot(0, distance: 0) }
        var t = ContactTracker(device: try TouchDevice(TestDevices.slottedHovering))
        XCTAssertEqual(t.timeline(s.events), ["900 began@0"])
    }

    func testADistanceTheDeviceDoesNotDeclareIsIgnored() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, distance: 5) }
        var t = ContactTracker(device: try TouchDevice(TestDevices.slotted))
        XCTAssertEqual(t.timeline(s.events), ["0 began@0"])
        var below = TestDevices.slotted
        below.absInfo[AbsCode.mtDistance] = AbsInfo(minimum: 1, maximum: 10)
        XCTAssertFalse(try TouchDevice(below).hasHoverDistance, "a device that cannot say 0 cannot say touching")
    }

    func testAHoveringPalmIsAPalm() throws {
        var d = TestDevices.slottedWithPalms
        d.absInfo[AbsCode.mtDistance] = AbsInfo(minimum: 0, maximum: 1)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, distance: 1) }
        s.frame(at: 10) { $0.slot(0, tool: MTTool.palm) }
        s.frame(at: 20) { $0.slot(0, distance: 0) }
        var t = ContactTracker(device: try TouchDevice(d))
        XCTAssertEqual(t.timeline(s.events), [])
        XCTAssertEqual(t.diagnostics.palms, 1)
    }

    func testAResyncOfAHoveringContactReportsNothing() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 50) }
        s.slot(0, distance: 1)  // restated by the daemon: it rose during the drop
        var t = ContactTracker(device: try TouchDevice(TestDevices.slottedHovering))
        XCTAssertEqual(t.timeline(s.events), ["0 began@0"])
        t.resync(slots: [SlotTruth(trackingID: 1, x: 100, y: 100, pressure: 0)])
        XCTAssertEqual(t.changes.map { "\($0.phase)@\($0.index)" }, ["cancelled@0"], "its end was not seen")
    }

    func testProtocolAHoveringContacts() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.point(100, 100, p: 0, distance: 1) }
        s.frame(at: 10) { $0.point(105, 100, p: 20, distance: 0) }
        s.frame(at: 20) { $0.point(110, 100, p: 0, distance: 1) }
        s.frame(at: 30) { $0.emit(EventType.syn, SynCode.mtReport, 0) }
        var t = ContactTracker(device: try TouchDevice(TestDevices.anonymousWithPalmsAndHover))
        XCTAssertEqual(t.timeline(s.events), ["10 began@0", "20 ended@0"])
    }

    /// A single-touch panel hovers with `BTN_TOOL_FINGER` down and `BTN_TOUCH` up (event-codes.rst:
    /// `ABS_DISTANCE` only while `BTN_TOUCH` is 0).
    func testASingleTouchPanelHoversWithTheToolButtonDownAndTouchUp() throws {
        var d = TestDevices.singleTouch
        d.codes = [EventType.key: [KeyCode.btnTouch, KeyCode.btnToolFinger]]
        d.absInfo[AbsCode.distance] = AbsInfo(minimum: 0, maximum: 15)
        var s = EventScript()
        s.frame(at: 0) {
            $0.single(x: 100, y: 100, p: 0)
            $0.abs(AbsCode.distance, 7)
            $0.emit(EventType.key, KeyCode.btnToolFinger, 1)
        }
        s.frame(at: 10) { $0.single(x: 110); $0.abs(AbsCode.distance, 2) }
        s.frame(at: 20) { $0.single(p: 40, touch: 1) }
        s.frame(at: 30) { $0.single(p: 0, touch: 0); $0.abs(AbsCode.distance, 3) }
        s.frame(at: 40) { $0.emit(EventType.key, KeyCode.btnToolFinger, 0) }
        var t = ContactTracker(device: try TouchDevice(d))
        XCTAssertEqual(t.timeline(s.events), ["20 began@0", "30 ended@0"])
    }
}
