import XCTest

@testable import PressureCore

/// What filter mode writes to a panel's clone (``CloneRewriter``), frame by frame and event by event, as the
/// kernel would take it: every event's type, code and value, in order (``name(_:)`` names each one
/// bijectively; the time is not written, the kernel stamps the clone's events). No uinput: the Linux layer
/// only writes these frames.
final class CloneRewriterTests: XCTestCase {
    // MARK: Frames

    static func abs(_ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: 0), type: EventType.abs, code: code, value: value)
    }
    static func key(_ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: 0), type: EventType.key, code: code, value: value)
    }
    static let syn = InputEvent(time: Timestamp(microseconds: 0), type: EventType.syn, code: SynCode.report, value: 0)

    static func slot(_ s: Int32) -> InputEvent { abs(AbsCode.mtSlot, s) }
    static func id(_ t: Int32) -> InputEvent { abs(AbsCode.mtTrackingID, t) }
    static func tool(_ t: Int32) -> InputEvent { abs(AbsCode.mtToolType, t) }
    static func mtX(_ v: Int32) -> InputEvent { abs(AbsCode.mtPositionX, v) }
    static func mtY(_ v: Int32) -> InputEvent { abs(AbsCode.mtPositionY, v) }
    static func mtP(_ v: Int32) -> InputEvent { abs(AbsCode.mtPressure, v) }
    static func touch(_ v: Int32) -> InputEvent { key(KeyCode.btnTouch, v) }

    /// One event as the kernel takes it: a name for the codes these tests use, else type, code (hex) and value.
    static func name(_ e: InputEvent) -> String {
        let abs: [UInt16: String] = [
            AbsCode.x: "X", AbsCode.y: "Y", AbsCode.pressure: "P", AbsCode.mtSlot: "SLOT",
            AbsCode.mtTrackingID: "ID", AbsCode.mtToolType: "TOOL", AbsCode.mtPositionX: "MTX",
            AbsCode.mtPositionY: "MTY", AbsCode.mtPressure: "MTP",
        ]
        if e.type == EventType.abs, let name = abs[e.code] { return "\(name) \(e.value)" }
        switch e.type {
        case EventType.key where e.code == KeyCode.btnTouch: return "TOUCH \(e.value)"
        case EventType.syn where e.code == SynCode.report && e.value == 0: return "SYN"
        default: return "\(String(e.type, radix: 16)):\(String(e.code, radix: 16)) \(e.value)"
        }
    }

    /// The clone's write for one frame of the panel.
    func write(_ r: inout CloneRewriter, _ frame: [InputEvent], cancelling: [Int] = [], held: Bool = false) -> [String] {
        var out: [InputEvent] = []
        r.rewrite(frame[...], cancelling: cancelling, held: held, into: &out)
        XCTAssertTrue(out.allSatisfy { $0.time == Timestamp(microseconds: 0) }, "no time: the kernel stamps the clone's")
        return out.map(Self.name)
    }

    /// Every touch and tool button up, as a cancel of every touch writes them.
    static let buttonsUp = (KeyCode.btnDigi...KeyCode.btnToolQuadTap).map { name(key($0, 0)) }

    typealias C = CloneRewriterTests

    // MARK: A frame whose gesture took a touch

    func testAPalmOnTheFrameAGestureFired() {
        var r = CloneRewriter(slots: 2)
        XCTAssertEqual(
            write(&r, [C.slot(0), C.id(10), C.mtX(100), C.mtY(200), C.slot(1), C.id(11), C.mtX(300), C.touch(1), C.syn]),
            ["SLOT 0", "ID 10", "MTX 100", "MTY 200", "SLOT 1", "ID 11", "MTX 300", "TOUCH 1", "SYN"],
            "nothing cancelled: the panel's frame as it came")
        XCTAssertEqual(
            write(&r, [C.slot(0), C.mtP(90), C.slot(1), C.mtP(20), C.syn], cancelling: [0]),
            ["SLOT 0", "MTP 90", "SLOT 1", "MTP 20", "SLOT 0", "TOOL 2", "SLOT 1", "SYN"],
            "the gesture's frame: slot 0 a palm before its SYN_REPORT, the panel's current slot put back")
        XCTAssertEqual(r.slots, [.palm(trackingID: 10), .down(trackingID: 11)])
        XCTAssertEqual(
            write(&r, [C.slot(0), C.mtP(95), C.tool(MTTool.finger), C.syn], cancelling: [0]),
            ["SLOT 0", "MTP 95", "SYN"], "marked once; the panel's own tool type kept from a palm")
        XCTAssertEqual(
            write(&r, [C.id(-1), C.slot(1), C.id(-1), C.touch(0), C.syn]),
            ["ID -1", "SLOT 1", "ID -1", "TOUCH 0", "SYN"], "the lifts pass")
        XCTAssertEqual(r.slots, [.palmIdle, .idle])
    }

    func testTwoSlotsCancelledInOneFrameAndAPalmOfTheTracker() {
        var r = CloneRewriter(slots: 3)
        _ = write(&r, [C.slot(0), C.id(1), C.slot(1), C.id(2), C.syn])
        XCTAssertEqual(
            write(&r, [C.mtX(5), C.syn], cancelling: [1, 2, 0, 7, -1]),
            ["MTX 5", "SLOT 1", "TOOL 2", "SLOT 2", "TOOL 2", "SLOT 0", "TOOL 2", "SLOT 1", "SYN"],
            "in the hub's order, an empty slot too (it stays a palm for its next contact); none the clone lacks")
        XCTAssertEqual(r.slots, [.palm(trackingID: 1), .palm(trackingID: 2), .palmIdle])
    }

    func testAFrameInPartsIsMarkedOnlyAtItsEnd() {
        var r = CloneRewriter(slots: 1)
        _ = write(&r, [C.id(3), C.syn])
        XCTAssertEqual(write(&r, [C.mtX(1)], cancelling: [0]), ["MTX 1"], "no SYN_REPORT yet: no mark")
        XCTAssertEqual(write(&r, [C.mtY(2), C.syn], cancelling: [0]), ["MTY 2", "SLOT 0", "TOOL 2", "SLOT 0", "SYN"])
    }

    func testASlotTheCloneLacksPassesAsItCame() {
        var r = CloneRewriter(slots: 2)
        let frame = [C.slot(5), C.id(9), C.tool(MTTool.pen), C.syn]
        XCTAssertEqual(write(&r, frame, cancelling: [5]), frame.map(C.name))
        XCTAssertEqual(r.slots, [.idle, .idle])
    }

    // MARK: The slot's next touch

    func testASlotsNextTouchAfterACancelledOneBeginsAsAFinger() {
        var r = CloneRewriter(slots: 2)
        _ = write(&r, [C.slot(0), C.id(10), C.syn])
        _ = write(&r, [C.mtP(90), C.syn], cancelling: [0])
        _ = write(&r, [C.id(-1), C.syn])
        XCTAssertEqual(
            write(&r, [C.id(11), C.mtX(7), C.syn]), ["TOOL 0", "ID 11", "MTX 7", "SYN"],
            "a finger just before the new contact's tracking id: libinput reads the tool type as a touch begins")
        XCTAssertEqual(r.slots[0], .down(trackingID: 11))
        XCTAssertEqual(write(&r, [C.tool(MTTool.pen), C.syn]), ["TOOL 1", "SYN"], "a finger again: the panel's tool type passes")
    }

    func testThePanelsToolTypeInTheFrameANewContactBeginsIsTheOneItTakes() {
        var r = CloneRewriter(slots: 2)
        _ = write(&r, [C.slot(1), C.id(4), C.syn], cancelling: [1])
        XCTAssertEqual(
            write(&r, [C.id(-1), C.syn]), ["ID -1", "SYN"])
        XCTAssertEqual(
            write(&r, [C.tool(MTTool.pen), C.id(5), C.syn]), ["TOOL 1", "ID 5", "SYN"],
            "the panel's tool type, kept from the palm, goes before the contact that begins in its frame")
        _ = write(&r, [C.syn], cancelling: [1])
        XCTAssertEqual(
            write(&r, [C.tool(MTTool.pen), C.id(-1), C.slot(0), C.id(6), C.syn]),
            ["ID -1", "SLOT 0", "ID 6", "SYN"], "slot 1's tool type is not slot 0's, and slot 0 was never a palm")
    }

    func testALiftAndATouchOfAPalmSlotInOneFrame() {
        var r = CloneRewriter(slots: 1)
        _ = write(&r, [C.id(1), C.syn], cancelling: [0])
        XCTAssertEqual(write(&r, [C.id(-1), C.id(2), C.syn]), ["ID -1", "TOOL 0", "ID 2", "SYN"])
        XCTAssertEqual(write(&r, [C.id(3), C.syn]), ["ID 3", "SYN"], "a second id passes as the panel sent it")
        XCTAssertEqual(r.slots, [.down(trackingID: 3)])
    }

    // MARK: SYN_DROPPED

    /// A slot of a panel with `ABS_MT_POSITION_X/Y`, the tracking id and pressure, as libevdev holds it.
    static func held(_ id: Int32, x: Int32 = 0, p: Int32 = 0) -> PanelSnapshot.Slot {
        PanelSnapshot.Slot(trackingID: id, values: [C.mtX(x), C.mtY(x + 1), C.id(id), C.mtP(p)])
    }

    func testSynDroppedRestatesThePanelAfterLiftingWhatItEnded() {
        var r = CloneRewriter(slots: 3)
        _ = write(&r, [C.slot(0), C.id(10), C.slot(1), C.id(11), C.syn])
        _ = write(&r, [C.mtP(200), C.syn], cancelling: [0])
        // Meanwhile: A lifted from slot 0 and B landed there; slot 1's contact stayed; slot 2 stayed empty.
        let panel = PanelSnapshot(
            slots: [Self.held(12, x: 50, p: 30), Self.held(11, x: 60, p: 40), Self.held(-1)],
            others: [C.abs(AbsCode.x, 50), C.abs(AbsCode.y, 51), C.touch(1)], currentSlot: 1)
        XCTAssertEqual(
            r.restate(panel, cancelling: [], held: false).map { $0.map(C.name) },
            [["SLOT 0", "ID -1", "SYN"],
             ["SLOT 0", "TOOL 0", "MTX 50", "MTY 51", "ID 12", "MTP 30",
              "SLOT 1", "MTX 60", "MTY 61", "ID 11", "MTP 40",
              "SLOT 2", "MTX 0", "MTY 1", "ID -1", "MTP 0",
              "X 50", "Y 51", "TOUCH 1", "SLOT 1", "SYN"]],
            "A's lift in a frame of its own, then the whole state, B a finger in A's palm slot")
        XCTAssertEqual(r.slots, [.down(trackingID: 12), .down(trackingID: 11), .idle])
        XCTAssertEqual(r.currentSlot, 1)
    }

    func testSynDroppedWithNothingEndedIsOneFrameWithItsCancels() {
        var r = CloneRewriter(slots: 2)
        _ = write(&r, [C.slot(0), C.id(10), C.syn])
        let panel = PanelSnapshot(slots: [Self.held(10, x: 5), Self.held(-1)], others: [], currentSlot: -1)
        XCTAssertEqual(
            r.restate(panel, cancelling: [0], held: false).map { $0.map(C.name) },
            [["SLOT 0", "MTX 5", "MTY 6", "ID 10", "MTP 0", "SLOT 1", "MTX 0", "MTY 1", "ID -1", "MTP 0",
              "SLOT 0", "TOOL 2", "SLOT 0", "SLOT 0", "SYN"]],
            "no lift; the slot the hub cancels a palm, the current slot put back (a current slot below 0 taken as 0) and stated")
        XCTAssertEqual(r.slots, [.palm(trackingID: 10), .idle])
    }

    func testSynDroppedEndingAPalmLeavesItAPalm() {
        var r = CloneRewriter(slots: 1)
        _ = write(&r, [C.id(10), C.syn], cancelling: [0])
        let frames = r.restate(PanelSnapshot(slots: [Self.held(-1)], others: [], currentSlot: 0), cancelling: [], held: false)
        XCTAssertEqual(frames.map { $0.map(C.name) },
                       [["SLOT 0", "ID -1", "SYN"], ["SLOT 0", "MTX 0", "MTY 1", "ID -1", "MTP 0", "SLOT 0", "SYN"]])
        XCTAssertEqual(r.slots, [.palmIdle])
    }

    // MARK: A single-touch panel's one slot

    /// A resistive panel: `ABS_X/Y` 0..4095, pressure 0..255, `BTN_TOUCH`.
    static let resistive = DeviceDescription(
        name: "Resistive", properties: [InputProperty.direct], codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 4095), AbsCode.y: AbsInfo(minimum: 0, maximum: 4095),
            AbsCode.pressure: AbsInfo(minimum: 0, maximum: 255),
        ])

    func testTheSingleTouchPanelsOneSlotClone() {
        var r = CloneRewriter(slots: 1, singleTouch: SingleTouchSlot(panel: Self.resistive))
        XCTAssertTrue(r.makesItsSlot)
        let x = { C.abs(AbsCode.x, $0) }, y = { C.abs(AbsCode.y, $0) }, p = { C.abs(AbsCode.pressure, $0) }
        XCTAssertEqual(
            write(&r, [x(10), y(20), p(90), C.touch(1), C.syn], held: true),
            ["X 10", "Y 20", "P 90", "TOUCH 1", "ID 0", "MTX 10", "MTY 20", "MTP 90", "SYN"],
            "the panel's events, then the slot's contact, before the SYN_REPORT")
        XCTAssertEqual(
            write(&r, [p(120), C.syn], cancelling: [0], held: true),
            ["P 120", "MTP 120", "SLOT 0", "TOOL 2", "SLOT 0", "SYN"], "the touch a gesture took: the slot a palm")
        XCTAssertEqual(write(&r, [p(0), C.touch(0), C.syn], held: false), ["P 0", "TOUCH 0", "ID -1", "SYN"])
        XCTAssertEqual(
            write(&r, [p(80), C.touch(1), C.syn], held: true),
            ["P 80", "TOUCH 1", "TOOL 0", "ID 1", "MTX 10", "MTY 20", "MTP 80", "SYN"], "the next touch a finger again")
        XCTAssertEqual(
            r.restate(PanelSnapshot(slots: [], others: [x(5), y(6), p(70), C.touch(1)], currentSlot: 0),
                      cancelling: [], held: true).map { $0.map(C.name) },
            [["X 5", "Y 6", "P 70", "TOUCH 1", "MTX 5", "MTY 6", "MTP 70", "SYN"]],
            "SYN_DROPPED: the panel's state through the slot, as a frame like any other")
    }

    // MARK: Every touch cancelled

    func testAStoppingDaemonCancelsItsTouches() {
        var r = CloneRewriter(slots: 3)
        _ = write(&r, [C.slot(0), C.id(10), C.slot(1), C.id(11), C.touch(1), C.syn])
        _ = write(&r, [C.syn], cancelling: [1])
        var out: [InputEvent] = []
        r.endContacts(currentSlot: 1, into: &out)
        XCTAssertEqual(
            out.map(C.name),
            ["SLOT 0", "TOOL 2", "ID -1", "SLOT 1", "TOOL 2", "ID -1", "SLOT 2", "TOOL 2", "ID -1"]
                + Self.buttonsUp + ["SLOT 1", "SYN"],
            "one frame: every slot a palm and lifted (TOUCH_CANCEL, not a click), every button up")
        XCTAssertEqual(r.slots, [.palmIdle, .palmIdle, .palmIdle])
    }

    func testAnAdoptedCloneCancelsWhatTheOldDaemonLeftDown() {
        // The new daemon knows nothing of what the old one left down: every slot is cancelled.
        var r = CloneRewriter(slots: 10)
        var out: [InputEvent] = []
        r.endContacts(currentSlot: 12, into: &out)
        let slots = (0..<10).flatMap { ["SLOT \($0)", "TOOL 2", "ID -1"] }
        XCTAssertEqual(out.map(C.name), slots + Self.buttonsUp + ["SLOT 9", "SYN"], "the panel's slot kept within the clone's")
        XCTAssertEqual(r.currentSlot, 9)
        XCTAssertEqual(write(&r, [C.slot(0), C.id(1), C.syn]), ["SLOT 0", "TOOL 0", "ID 1", "SYN"],
                       "the panel's next touch, grabbed again with none down, a finger on the clone")
    }

    func testAnAdoptedSingleTouchClonesNextTouchIsAFinger() {
        var r = CloneRewriter(slots: 1, singleTouch: SingleTouchSlot(panel: Self.resistive))
        var out: [InputEvent] = []
        r.endContacts(currentSlot: 0, into: &out)
        XCTAssertEqual(out.map(C.name), ["SLOT 0", "TOOL 2", "ID -1"] + Self.buttonsUp + ["SLOT 0", "SYN"])
        XCTAssertEqual(write(&r, [C.touch(1), C.syn], held: true), ["TOUCH 1", "TOOL 0", "ID 0", "MTX 0", "MTY 0", "MTP 0", "SYN"])
    }
}
