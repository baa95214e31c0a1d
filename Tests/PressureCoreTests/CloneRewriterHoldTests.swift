import XCTest

@testable import PressureCore

/// Hold mode's clone (``CloneRewriter/Mode/hold``), frame by frame as the kernel would take it (the names of
/// ``CloneRewriterTests``): a held touch kept from the clone until the hub's verdict, then written whole, in
/// part, or never; touches not held passing in their own frame; the clone's count buttons counting only the
/// contacts it shows.
final class CloneRewriterHoldTests: XCTestCase {
    typealias C = CloneRewriterTests

    static let finger = CloneRewriterTests.key(KeyCode.btnToolFinger, 1)
    static let doubleTap: UInt16 = 0x14d

    /// A hold-mode rewriter of a panel with `slots` slots and `BTN_TOUCH`, `BTN_TOOL_FINGER`, `DOUBLETAP`.
    static func rewriter(slots: Int = 2, buttons: [UInt16] = [KeyCode.btnTouch, KeyCode.btnToolFinger, doubleTap]) -> CloneRewriter {
        CloneRewriter(slots: slots, mode: .hold, buttons: buttons)
    }

    func write(_ r: inout CloneRewriter, _ frame: [InputEvent], cancelling: [Int] = [], held: Bool = false,
               holding: [Int] = [], taken: [Int] = []) -> [String] {
        var out: [InputEvent] = []
        r.rewrite(frame[...], cancelling: cancelling, held: held, holds: CloneHolds(holding: holding, taken: taken), into: &out)
        return out.map(C.name)
    }

    static let down = ["TOUCH 1", "1:145 1"]
    static let up = ["TOUCH 0", "1:145 0"]

    // MARK: A tap in a region that takes touches

    func testATapIsWrittenWholeAtItsLift() {
        var r = Self.rewriter()
        XCTAssertEqual(
            write(&r, [C.slot(0), C.id(10), C.mtX(100), C.mtY(200), C.mtP(30), C.touch(1), Self.finger, C.syn], holding: [0]),
            ["SLOT 0", "SYN"], "held: nothing of the touch, BTN_TOUCH stays 0 (the kernel drops a frame with no event)")
        XCTAssertEqual(write(&r, [C.mtX(104), C.mtP(40), C.syn], holding: [0]), ["SYN"])
        XCTAssertEqual(write(&r, [C.mtX(105), C.syn], holding: [0]), ["SYN"], "moves within the slop are coalesced")
        XCTAssertEqual(
            write(&r, [C.id(-1), C.touch(0), C.key(KeyCode.btnToolFinger, 0), C.syn]),
            ["SYN",
             "SLOT 0", "ID 10", "MTX 100", "MTY 200", "MTP 30"] + Self.down + ["SYN",
             "SLOT 0", "MTX 105", "MTP 40", "SYN",
             "SLOT 0", "ID -1"] + Self.up + ["SLOT 0", "SYN"],
            "at the lift: the down at its first point, its moves, the up, each a frame")
        XCTAssertEqual(r.held, [.free, .free])
        XCTAssertEqual(r.slots, [.idle, .idle])
    }

    func testATouchTakenByAGestureIsNeverWritten() {
        var r = Self.rewriter()
        _ = write(&r, [C.slot(0), C.id(10), C.mtX(100), C.touch(1), Self.finger, C.syn], holding: [0])
        XCTAssertEqual(write(&r, [C.mtP(300), C.syn], cancelling: [0], taken: [0]), ["SYN"], "the peek: taken")
        XCTAssertEqual(r.held, [.withheld(trackingID: 10), .free])
        XCTAssertEqual(write(&r, [C.mtP(500), C.syn], cancelling: [0], taken: [0]), ["SYN"], "nor its pop")
        XCTAssertEqual(write(&r, [C.id(-1), C.touch(0), C.syn]), ["SYN"], "nor its lift: nothing to cancel")
        XCTAssertEqual(r.held, [.free, .free])
        XCTAssertEqual(r.slots, [.idle, .idle], "never a palm")
        XCTAssertEqual(write(&r, [C.id(11), C.mtX(7), C.touch(1), C.syn]), ["ID 11", "MTX 7"] + Self.down + ["SYN"],
                       "the slot's next touch, outside the regions, passes in its frame")
    }

    func testATakenTouchsNextInTheSameFrameIsHeld() {
        var r = Self.rewriter()
        _ = write(&r, [C.slot(0), C.id(10), C.mtX(100), C.syn], holding: [0])
        _ = write(&r, [C.mtP(300), C.syn], cancelling: [0], taken: [0])
        XCTAssertEqual(write(&r, [C.id(-1), C.id(11), C.mtX(7), C.syn], holding: [0], taken: [0]), ["SYN"],
                       "the taken one lifted and the slot's next began in one frame: the next is held")
        XCTAssertEqual(r.held, [.holding({ var h = HeldTouch.Held(trackingID: 11); h.remember(C.mtX(7)); h.begun = true; return h }()), .free])
    }

    func testTakenInTheFrameItLiftsIsNoTap() {
        var r = Self.rewriter()
        _ = write(&r, [C.slot(0), C.id(10), C.mtX(100), C.syn], holding: [0])
        XCTAssertEqual(write(&r, [C.id(-1), C.syn], taken: [0]), ["SYN"],
                       "a long press due at the lift took it: the hub still names its slot")
        XCTAssertEqual(r.held, [.free, .free])
    }

    // MARK: Let go: a drag, a still finger

    func testADragIsLetGoAtTheSlopThenLive() {
        var r = Self.rewriter()
        _ = write(&r, [C.slot(0), C.id(10), C.mtX(100), C.mtY(200), C.touch(1), Self.finger, C.syn], holding: [0])
        XCTAssertEqual(write(&r, [C.mtX(110), C.syn], holding: [0]), ["SYN"])
        XCTAssertEqual(
            write(&r, [C.mtX(140), C.mtY(210), C.syn]),
            ["SYN", "SLOT 0", "ID 10", "MTX 100", "MTY 200"] + Self.down + ["SYN", "SLOT 0", "MTX 140", "MTY 210", "SLOT 0", "SYN"],
            "beyond the slop: its down, its moves so far (coalesced), then live")
        XCTAssertEqual(write(&r, [C.mtX(160), C.syn]), ["MTX 160", "SYN"], "live")
        XCTAssertEqual(write(&r, [C.id(-1), C.touch(0), C.syn]), ["ID -1"] + Self.up + ["SYN"])
    }

    func testAStillTouchLetGoByTimeThenTakenIsCancelled() {
        var r = Self.rewriter()
        _ = write(&r, [C.slot(0), C.id(10), C.mtX(100), C.syn], holding: [0])
        var out: [InputEvent] = []
        r.settle(cancelling: [], holds: CloneHolds(holding: [0]), into: &out)
        XCTAssertEqual(out, [], "still held: nothing")
        r.settle(cancelling: [], holds: .none, into: &out)
        XCTAssertEqual(out.map(C.name), ["SLOT 0", "ID 10", "MTX 100"] + Self.down + ["SLOT 0", "SYN"],
                       "the timer let it go: its down, so the app's own long press can come")
        XCTAssertEqual(write(&r, [C.mtP(300), C.syn], cancelling: [0]), ["MTP 300", "SLOT 0", "TOOL 2", "SLOT 0", "SYN"],
                       "a peek after: cancelled as in cancel mode")
        XCTAssertEqual(write(&r, [C.id(-1), C.syn]), ["ID -1"] + Self.up + ["SYN"])
        XCTAssertEqual(r.slots, [.palmIdle, .idle])
    }

    // MARK: Two fingers, one held

    func testTwoFingersOneHeldEachOnItsOwn() {
        var r = Self.rewriter()
        XCTAssertEqual(
            write(&r, [C.slot(0), C.id(10), C.mtX(100), C.slot(1), C.id(11), C.mtX(900), C.touch(1), C.key(Self.doubleTap, 1), C.syn],
                  holding: [0]),
            ["SLOT 0", "SLOT 1", "ID 11", "MTX 900"] + Self.down + ["SYN"],
            "slot 1, outside the regions, passes in its frame; the clone counts one finger, not the panel's two")
        XCTAssertEqual(
            write(&r, [C.slot(0), C.id(-1), C.slot(1), C.mtX(901), C.syn]),
            ["SLOT 0", "SLOT 1", "MTX 901", "SYN",
             "SLOT 0", "ID 10", "MTX 100", "1:145 0", "1:14d 1", "SYN",
             "SLOT 0", "ID -1", "1:145 1", "1:14d 0", "SLOT 1", "SYN"],
            "the held one lifts: written whole after the frame, the panel's slot put back")
    }

    // MARK: Stopping, SYN_DROPPED

    func testEndContactsHasNothingToCancelForAHeldTouch() {
        var r = Self.rewriter()
        _ = write(&r, [C.slot(0), C.id(10), C.mtX(100), C.touch(1), C.syn], holding: [0])
        var out: [InputEvent] = []
        r.endContacts(currentSlot: 0, into: &out)
        XCTAssertEqual(r.held, [.free, .free], "forgotten")
        XCTAssertEqual(write(&r, [C.id(-1), C.syn]), ["ID -1", "SYN"], "its lift then passes: the kernel drops a lift of an empty slot")
    }

    func testRestatedHeldTouchGoesOnBeingHeld() {
        var r = Self.rewriter()
        _ = write(&r, [C.slot(0), C.id(10), C.mtX(100), C.touch(1), C.syn], holding: [0])
        let panel = PanelSnapshot(
            slots: [.init(trackingID: 10, values: [C.id(10), C.mtX(120)]), .init(trackingID: 12, values: [C.id(12), C.mtX(5)])],
            others: [C.touch(1)], currentSlot: 1)
        let frames = r.restate(panel, cancelling: [], held: false, holds: CloneHolds(holding: [0]))
        XCTAssertEqual(frames.map { $0.map(C.name) }, [["SLOT 0", "SLOT 1", "ID 12", "MTX 5"] + Self.down + ["SLOT 1", "SYN"]],
                       "the held touch is not restated; the new one, not held, is; the panel's BTN_TOUCH is the clone's own")
        XCTAssertEqual(write(&r, [C.slot(0), C.id(-1), C.syn]), [
            "SLOT 0", "SYN", "SLOT 0", "ID 10", "MTX 100", "1:145 0", "1:14d 1", "SYN", "SLOT 0", "MTX 120", "SYN",
            "SLOT 0", "ID -1", "1:145 1", "1:14d 0", "SLOT 0", "SYN",
        ], "its lift: the whole touch, its restated position a move")
    }

    func testRestatedHeldTouchThatEndedIsDropped() {
        var r = Self.rewriter()
        _ = write(&r, [C.slot(0), C.id(10), C.mtX(100), C.touch(1), C.syn], holding: [0])
        let panel = PanelSnapshot(slots: [.init(trackingID: -1, values: [C.id(-1)]), .init(trackingID: -1, values: [C.id(-1)])],
                                  others: [C.touch(0)], currentSlot: 0)
        let frames = r.restate(panel, cancelling: [], held: false, holds: .none)
        XCTAssertEqual(frames.map { $0.map(C.name) }, [["SLOT 0", "ID -1", "SLOT 1", "ID -1", "SLOT 0", "SYN"]],
                       "lost to SYN_DROPPED: never shown, nothing to lift (the kernel drops the empty slots' lifts)")
        XCTAssertEqual(r.held, [.free, .free])
    }

    // MARK: A frame in two reads

    func testAFrameWaitsForItsEnd() {
        var r = Self.rewriter()
        XCTAssertEqual(write(&r, [C.slot(0), C.id(10)]), [], "its holds are known only at its end")
        XCTAssertEqual(write(&r, [C.mtX(100), C.touch(1), C.syn]), ["SLOT 0", "ID 10", "MTX 100"] + Self.down + ["SYN"],
                       "not held: the frame whole")
    }

    // MARK: Single-touch panels

    func testASingleTouchPanelsHeldTouchKeepsItsOwnAxesFromTheClone() {
        let panel = DeviceDescription(
            name: "resistive", codes: [EventType.abs: [AbsCode.x, AbsCode.y, AbsCode.pressure], EventType.key: [KeyCode.btnTouch]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 4095), AbsCode.y: AbsInfo(minimum: 0, maximum: 4095),
                      AbsCode.pressure: AbsInfo(minimum: 0, maximum: 255)])
        var r = CloneRewriter(slots: 1, singleTouch: SingleTouchSlot(panel: panel), mode: .hold, buttons: [KeyCode.btnTouch])
        XCTAssertEqual(write(&r, [C.abs(AbsCode.x, 10), C.abs(AbsCode.y, 20), C.abs(AbsCode.pressure, 50), C.touch(1), C.syn],
                             held: true, holding: [0]),
                       ["SYN"], "held: neither the slot nor the panel's own position, pressure and BTN_TOUCH")
        XCTAssertEqual(write(&r, [C.abs(AbsCode.x, 12), C.syn], held: true, holding: [0]), ["SYN"])
        XCTAssertEqual(write(&r, [C.abs(AbsCode.pressure, 0), C.touch(0), C.syn], held: false), [
            "SYN",
            "SLOT 0", "ID 0", "MTX 10", "MTY 20", "MTP 50", "TOUCH 1", "X 12", "Y 20", "P 0", "SYN",
            "SLOT 0", "MTX 12", "SYN",
            "SLOT 0", "ID -1", "TOUCH 0", "SLOT 0", "SYN",
        ], "the lift: the whole touch, the panel's own axes with its first frame")
    }
}
