import DeviceTestSupport
import XCTest
@testable import PressureCore

final class ContactTrackerTests: XCTestCase {
    func changes(_ d: DeviceDescription, _ events: [InputEvent]) throws -> [String] {
        var tracker = ContactTracker(device: try TouchDevice(d))
        return tracker.run(events)
    }

    func testProtocolBBeganMovedEnded() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 7, x: 100, y: 200, p: 30) }
        s.frame(at: 10) { $0.slot(0, p: 40) }
        s.frame(at: 20) { $0.slot(0, id: -1) }
        XCTAssertEqual(try changes(TestDevices.slotted, s.events),
                       ["began@0:100,200,30", "moved@0:100,200,40", "ended@0:100,200,40"])
    }

    func testPressureZeroOnALiveTrackingIDIsStillATouch() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 1, y: 1, p: 50) }
        s.frame(at: 10) { $0.slot(0, p: 0) }
        s.frame(at: 20) { $0.slot(0, p: 60) }
        XCTAssertEqual(try changes(TestDevices.slotted, s.events),
                       ["began@0:1,1,50", "moved@0:1,1,0", "moved@0:1,1,60"])
    }

    func testTwoSlotsAndSingleTouchEmulationIgnored() throws {
        var s = EventScript()
        s.frame(at: 0) {
            $0.slot(0, id: 1, x: 10, y: 10, p: 5)
            $0.slot(1, id: 2, x: 20, y: 20, p: 6)
            $0.abs(AbsCode.x, 999)
            $0.abs(AbsCode.pressure, 999)
            $0.emit(EventType.key, KeyCode.btnTouch, 1)
        }
        s.frame(at: 10) { $0.slot(0, id: -1) }
        XCTAssertEqual(try changes(TestDevices.slotted, s.events),
                       ["began@0:10,10,5", "began@1:20,20,6", "ended@0:10,10,5"])
    }

    func testOutOfRangeValuesAreClampedAndUndeclaredSlotsIgnored() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: -50, y: 99999, p: 5000) }
        s.frame(at: 10) { $0.slot(42, id: 9, x: 1, y: 1, p: 1) }
        s.frame(at: 20) { $0.slot(-3, id: 9) }
        var tracker = ContactTracker(device: try TouchDevice(TestDevices.slotted))
        XCTAssertEqual(tracker.run(s.events), ["began@0:0,4095,1000"])
        XCTAssertEqual(tracker.diagnostics.valuesClamped, 3)
        XCTAssertEqual(tracker.diagnostics.eventsForUnknownSlots, 5)
    }

    /// libevdev drops a second tracking id on a slot that holds one ("double tracking ID"); the daemon
    /// reads through libevdev, so replay does the same: the contact carries on.
    func testTrackingIDReplacedWithoutLiftIsIgnoredAsLibevdevDoes() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 1, y: 1, p: 10) }
        s.frame(at: 10) { $0.slot(0, id: 2, x: 5, y: 5) }
        s.frame(at: 20) { $0.slot(0, id: 2) }  // the same id again: nothing new
        XCTAssertEqual(try changes(TestDevices.slotted, s.events),
                       ["began@0:1,1,10", "moved@0:5,5,10"])
    }

    /// The Huitoo 03f7:0003 and Sharp 04dd:9681 recordings do this: slot 6 gets tracking id -1, then id 14
    /// in the same frame, for a finger elsewhere. Two fingers, not one that jumped.
    func testALiftAndANewIDInOneFrameAreTwoContacts() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(6, id: 13, x: 3011, y: 2119, p: 10) }
        s.frame(at: 10) {
            $0.slot(6, id: -1)
            $0.slot(7, id: 20, x: 2727, y: 1981, p: 10)
            $0.slot(6, id: 14, x: 2532, y: 2586)
        }
        XCTAssertEqual(try changes(TestDevices.slotted, s.events), [
            "began@6:3011,2119,10", "ended@6:3011,2119,10", "began@6:2532,2586,10", "began@7:2727,1981,10",
        ])
    }

    func testSynDroppedCancelsLiveContactsUntilTheirSlotIsReused() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 1, y: 1, p: 10); $0.slot(1, id: 2, x: 2, y: 2, p: 10) }
        s.ms = 5
        s.dropped()
        s.slot(0, id: -1)  // lost
        s.frame(at: 6) { $0.slot(1, p: 20) }  // the SYN_REPORT that ends the drop
        s.frame(at: 10) { $0.slot(1, p: 30) }  // slot 1 is suppressed: its state is unknown
        s.frame(at: 20) { $0.slot(1, id: -1) }
        s.frame(at: 30) { $0.slot(1, id: 3, x: 9, y: 9, p: 9) }
        XCTAssertEqual(try changes(TestDevices.slotted, s.events), [
            "began@0:1,1,10", "began@1:2,2,10", "cancelled@0:1,1,10", "cancelled@1:2,2,10", "began@1:9,9,9",
        ])
    }

    func testResyncCancelsVanishedContactsAndKeepsTheOthers() throws {
        var tracker = ContactTracker(device: try TouchDevice(TestDevices.slotted))
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 1, y: 1, p: 10); $0.slot(1, id: 2, x: 2, y: 2, p: 10) }
        for e in s.events { _ = tracker.handle(e) }
        tracker.resync(slots: [
            .empty, SlotTruth(trackingID: 2, x: 3, y: 3, pressure: 11), SlotTruth(trackingID: 5, x: 4, y: 4, pressure: 12),
        ])
        XCTAssertEqual(tracker.changes.map { "\($0.phase)@\($0.index)" }, ["cancelled@0", "moved@1", "began@2"])
    }

    func testSingleTouchPanelUsesBtnTouch() throws {
        var s = EventScript()
        s.frame(at: 0) {
            $0.abs(AbsCode.x, 100); $0.abs(AbsCode.y, 200); $0.abs(AbsCode.pressure, 0)
            $0.emit(EventType.key, KeyCode.btnTouch, 1)
        }
        s.frame(at: 10) { $0.abs(AbsCode.pressure, 80) }
        s.frame(at: 20) { $0.emit(EventType.key, KeyCode.btnTouch, 0) }
        s.frame(at: 30) { $0.abs(AbsCode.pressure, 0) }
        XCTAssertEqual(try changes(TestDevices.singleTouch, s.events),
                       ["began@0:100,200,0", "moved@0:100,200,80", "ended@0:100,200,80"])
    }

    func testSingleTouchPanelWithoutButtonTouchesWhilePressed() throws {
        var d = TestDevices.singleTouch
        d.codes = [:]
        var s = EventScript()
        s.frame(at: 0) { $0.abs(AbsCode.x, 1); $0.abs(AbsCode.y, 2); $0.abs(AbsCode.pressure, 30) }
        s.frame(at: 10) { $0.abs(AbsCode.pressure, 0) }
        XCTAssertEqual(try changes(d, s.events), ["began@0:1,2,30", "ended@0:1,2,0"])
    }

    func testProtocolAMatchesContactsByNearestPosition() throws {
        var s = EventScript()
        func point(_ s: inout EventScript, _ x: Int32, _ y: Int32, _ p: Int32) {
            s.abs(AbsCode.mtPositionX, x); s.abs(AbsCode.mtPositionY, y); s.abs(AbsCode.mtPressure, p)
            s.emit(EventType.syn, SynCode.mtReport, 0)
        }
        s.frame(at: 0) { point(&$0, 100, 100, 10); point(&$0, 5000, 5000, 20) }
        s.frame(at: 10) { point(&$0, 5010, 5000, 20); point(&$0, 105, 100, 10) }  // order swapped
        s.frame(at: 20) { point(&$0, 5010, 5000, 20) }
        s.frame(at: 30) { $0.emit(EventType.syn, SynCode.mtReport, 0) }  // empty: all lifted
        XCTAssertEqual(try changes(TestDevices.anonymous, s.events), [
            "began@0:100,100,10", "began@1:5000,5000,20", "moved@0:105,100,10", "moved@1:5010,5000,20",
            "ended@0:105,100,10", "ended@1:5010,5000,20",
        ])
    }

    func testDeviceKindsAndCapabilities() throws {
        let screen = try TouchDevice(TestDevices.slotted)
        XCTAssertEqual(screen.kind, .touchscreen)
        XCTAssertEqual(screen.contactProtocol, .slotted(slots: 10))
        XCTAssertTrue(screen.hasPressure)
        XCTAssertFalse(try TouchDevice(TestDevices.slottedWithoutPressure).hasPressure)
        var pad = TestDevices.slotted
        pad.properties = [InputProperty.pointer, InputProperty.buttonpad]
        XCTAssertEqual(try TouchDevice(pad).kind, .touchpad)
        XCTAssertEqual(try TouchDevice(TestDevices.singleTouch).contactProtocol, .singleTouch)
        XCTAssertEqual(try TouchDevice(TestDevices.anonymous).contactProtocol, .anonymous)
        XCTAssertThrowsError(try TouchDevice(DeviceDescription(name: "keyboard")))
        var huge = TestDevices.slotted
        huge.absInfo[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: 100_000)
        XCTAssertEqual(try TouchDevice(huge).contactProtocol, .slotted(slots: TouchDevice.maximumSlots))
    }
}
