import DeviceTestSupport
@testable import PressureCore
import XCTest

/// Filter mode's one slot for a single-touch panel (``SingleTouchSlot``): every transition of its table
/// and the clone's description (the slot the hub names for a cancel on such a panel: `HubFilterTests`).
final class SingleTouchSlotTests: XCTestCase {
    /// The clone's frame for one panel frame at `ms`, the tracker having the panel `held` after it.
    func frame(_ slot: inout SingleTouchSlot, _ ms: Int64, held: Bool, _ body: (inout EventScript) -> Void) -> [String] {
        var s = EventScript()
        s.frame(at: ms, body)
        var out: [InputEvent] = []
        slot.translate(s.events[...], held: held, into: &out)
        return out.map(Self.name)
    }

    static func name(_ e: InputEvent) -> String {
        let names: [UInt16: String] = [
            AbsCode.x: "X", AbsCode.y: "Y", AbsCode.pressure: "P", AbsCode.mtTrackingID: "ID",
            AbsCode.mtPositionX: "MTX", AbsCode.mtPositionY: "MTY", AbsCode.mtPressure: "MTP",
        ]
        switch e.type {
        case EventType.abs: return "\(names[e.code] ?? "abs\(e.code)")=\(e.value)"
        case EventType.key where e.code == KeyCode.btnTouch: return "TOUCH=\(e.value)"
        case EventType.syn: return "SYN"
        default: return "\(e.type):\(e.code)=\(e.value)"
        }
    }

    func testEveryTransitionWithTheButtonThePanelHas() {
        var slot = SingleTouchSlot(panel: TestDevices.singleTouch)
        XCTAssertEqual(frame(&slot, 0, held: false) { $0.single(x: 10, y: 20, p: 5) }, ["X=10", "Y=20", "P=5", "SYN"],
                       "up, not held: up, the frame as it is")
        XCTAssertEqual(slot.state, .up)
        XCTAssertEqual(frame(&slot, 10, held: true) { $0.single(p: 90, touch: 1) },
                       ["P=90", "TOUCH=1", "ID=0", "MTX=10", "MTY=20", "MTP=90", "SYN"],
                       "up, held: down, the slot begins where the panel is (its own BTN_TOUCH passes)")
        XCTAssertEqual(slot.state, .down(trackingID: 0))
        XCTAssertEqual(frame(&slot, 20, held: true) { $0.single(x: 12) }, ["X=12", "MTX=12", "SYN"],
                       "down, held: only what changed")
        XCTAssertEqual(frame(&slot, 30, held: false) { $0.single(p: 0, touch: 0) }, ["P=0", "TOUCH=0", "ID=-1", "SYN"],
                       "down, not held: the slot ends")
        XCTAssertEqual(slot.state, .up)
        XCTAssertEqual(frame(&slot, 40, held: true) { $0.single(p: 80, touch: 1) },
                       ["P=80", "TOUCH=1", "ID=1", "MTX=12", "MTY=20", "MTP=80", "SYN"], "the next touch, the next id")
    }

    func testAPanelWithoutTheButtonGetsOneThatFollowsTheSlot() {
        var slot = SingleTouchSlot(panel: TestDevices.singleTouchWithoutButton)
        XCTAssertEqual(frame(&slot, 0, held: true) { $0.single(x: 1, y: 2, p: 40) },
                       ["X=1", "Y=2", "P=40", "ID=0", "MTX=1", "MTY=2", "MTP=40", "TOUCH=1", "SYN"])
        XCTAssertEqual(frame(&slot, 10, held: false) { $0.single(p: 3) }, ["P=3", "ID=-1", "TOUCH=0", "SYN"])
    }

    func testAFrameInTwoPartsMovesTheSlotOnOnlyAtItsEnd() {
        var slot = SingleTouchSlot(panel: TestDevices.singleTouch)
        var out: [InputEvent] = []
        let x = InputEvent(time: Timestamp(microseconds: 0), type: EventType.abs, code: AbsCode.x, value: 7)
        let touch = InputEvent(time: Timestamp(microseconds: 0), type: EventType.key, code: KeyCode.btnTouch, value: 1)
        let syn = InputEvent(time: Timestamp(microseconds: 0), type: EventType.syn, code: SynCode.report, value: 0)
        slot.translate([x][...], held: true, into: &out)
        XCTAssertEqual(out.map(Self.name), ["X=7"], "no SYN_REPORT yet: nothing of the slot")
        XCTAssertEqual(slot.state, .up)
        slot.translate([touch, syn][...], held: true, into: &out)
        XCTAssertEqual(out.map(Self.name), ["X=7", "TOUCH=1", "ID=0", "MTX=7", "MTY=0", "MTP=0", "SYN"])
    }

    func testTrackingIdsWrapBelowTheKernelsLimit() {
        var slot = SingleTouchSlot(panel: TestDevices.singleTouch)
        var ids: [Int32] = []
        for k in 0..<Int64(SingleTouchSlot.trackingIDLimit + 1) {
            _ = frame(&slot, 2 * k, held: true) { _ in }
            if case .down(let id) = slot.state { ids.append(id) }
            _ = frame(&slot, 2 * k + 1, held: false) { _ in }
        }
        XCTAssertEqual(ids.first, 0)
        XCTAssertEqual(ids.max(), SingleTouchSlot.trackingIDLimit - 1)
        XCTAssertEqual(ids.last, 0, "wrapped")
    }

    func testTheCloneDeclaresOneSlotATouchscreenAndNoFuzz() throws {
        var panel = TestDevices.singleTouchWithoutButton
        panel.properties = []
        panel.absInfo[AbsCode.x]?.fuzz = 4
        let d = SingleTouchSlot.cloneDescription(of: panel)
        XCTAssertEqual(d.axis(AbsCode.mtSlot), AbsInfo(minimum: 0, maximum: 0))
        XCTAssertEqual(d.axis(AbsCode.mtPositionX), AbsInfo(minimum: 0, maximum: 4095))
        XCTAssertEqual(d.axis(AbsCode.x), AbsInfo(minimum: 0, maximum: 4095), "the panel's own axis, without its fuzz")
        XCTAssertEqual(d.axis(AbsCode.mtPressure), panel.axis(AbsCode.pressure))
        XCTAssertEqual(d.axis(AbsCode.mtToolType)?.maximum, MTTool.maximum)
        XCTAssertTrue(d.has(type: EventType.key, code: KeyCode.btnTouch))
        XCTAssertTrue(d.properties.contains(InputProperty.direct))
        let clone = try TouchDevice(d)
        XCTAssertEqual(clone.contactProtocol, .slotted(slots: 1), "the clone is a protocol B touchscreen")
        XCTAssertEqual(clone.kind, .touchscreen)
    }

    func testWhichDevicesTheFilterCanCancel() throws {
        XCTAssertEqual(try TouchDevice(TestDevices.slotted).cloneSlots, .panels)
        XCTAssertEqual(try TouchDevice(TestDevices.singleTouch).cloneSlots, .one)
        XCTAssertNil(try TouchDevice(TestDevices.anonymous).cloneSlots)
        XCTAssertEqual(try TouchDevice(TestDevices.anonymous).whyNotCancellable, "protocol A: anonymous contacts, no slots")
        var pad = TestDevices.singleTouch
        pad.properties = [InputProperty.pointer]
        XCTAssertNil(try TouchDevice(pad).cloneSlots)
        XCTAssertEqual(try TouchDevice(pad).whyNotCancellable, "a single-touch touchpad")
        XCTAssertNil(try TouchDevice(TestDevices.slotted).whyNotCancellable)
    }
}
