import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// Filter mode's hold in the hub (``HeldTouches``): which touches a hold-mode clone keeps back, and the
/// verdict on each after every frame and tick (``Hub/heldSlots(device:)``).
final class HubHoldTests: XCTestCase {
    var hub = Hub(configuration: Configuration())
    var device = 0

    override func setUpWithError() throws {
        hub = Hub(configuration: try TestDevices.configuration())
        device = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        hub.holdTouches(device: device, true)
    }

    func owner(wants: String, x: Int = 0, width: Int = 5000) {
        let c = hub.connect(mayControl: false)
        for line in [#"{"request":"subscribe"}"#,
                     #"{"request":"setRegion","region":"r","x":\#(x),"y":0,"width":\#(width),"height":5000,"wants":\#(wants)}"#] {
            hub.receive(client: c, line: Array(line.utf8)[...], now: Timestamp(microseconds: 0))
        }
    }

    /// One frame at `ms`, then what the clone is told.
    func frame(_ ms: Int64, _ body: (inout EventScript) -> Void) -> CloneHolds {
        var s = EventScript()
        s.frame(at: ms, body)
        hub.handle(device: device, events: s.events[...])
        return hub.heldSlots(device: device)
    }

    func held(_ slots: [Int]) -> CloneHolds { CloneHolds(holding: slots) }
    func taken(_ slots: [Int]) -> CloneHolds { CloneHolds(taken: slots) }

    func testATapIsHeldUntilItLifts() {
        owner(wants: #"["previews"]"#)
        XCTAssertEqual(frame(0) { $0.slot(1, id: 5, x: 100, y: 100, p: 100) }, held([1]))
        XCTAssertEqual(frame(10) { $0.slot(1, p: 120) }, held([1]))
        XCTAssertEqual(frame(40) { $0.slot(1, id: -1) }, .none, "lifted, not taken: let go, so the clone writes it whole")
    }

    func testAFirmPressIsTakenAndToldOnceAfterItsLift() {
        owner(wants: #"["previews"]"#)
        _ = frame(0) { $0.slot(1, id: 5, x: 100, y: 100, p: 100) }
        XCTAssertEqual(frame(20) { $0.slot(1, p: 500) }, taken([1]), "the peek took it")
        XCTAssertEqual(frame(40) { $0.slot(1, id: -1) }, taken([1]), "its lift: still taken, no tap")
        XCTAssertEqual(hub.heldSlots(device: device), .none, "then forgotten")
    }

    func testATouchOutsideRegionsOrInOneThatWantsNothingIsNotHeld() {
        XCTAssertEqual(frame(0) { $0.slot(0, id: 1, x: 100, y: 100, p: 100) }, .none, "no region")
        _ = frame(10) { $0.slot(0, id: -1) }
        owner(wants: "[]")
        XCTAssertEqual(frame(20) { $0.slot(0, id: 2, x: 100, y: 100, p: 100) }, .none, "a region that wants nothing")
    }

    func testADragIsLetGoBeyondTheSlop() {
        owner(wants: #"["previews"]"#)
        _ = frame(0) { $0.slot(0, id: 1, x: 100, y: 100, p: 100) }
        XCTAssertEqual(frame(10) { $0.slot(0, x: 101) }, held([0]), "within the slop")
        XCTAssertEqual(frame(20) { $0.slot(0, x: 900) }, .none, "beyond it: let go")
        XCTAssertEqual(frame(30) { $0.slot(0, p: 500) }, .none, "a peek after it was let go: cancelled as in cancel mode")
        XCTAssertEqual(hub.cancelledSlots(device: device, palms: false), [0])
    }

    func testAStillTouchIsLetGoAtTheLongPressTimeUnlessTheRegionWantsIt() {
        owner(wants: #"["previews"]"#)
        _ = frame(0) { $0.slot(0, id: 1, x: 100, y: 100, p: 100) }
        XCTAssertEqual(hub.nextDeadline, Timestamp(microseconds: 500_000), "the long-press time")
        hub.tick(now: Timestamp(microseconds: 500_000))
        XCTAssertEqual(hub.heldSlots(device: device), .none, "let go: the app's own long press can come")
        XCTAssertNil(hub.nextDeadline)
    }

    func testALongPressInARegionThatWantsItTakesTheHeldTouch() {
        owner(wants: #"["longPress"]"#)
        _ = frame(0) { $0.slot(0, id: 1, x: 100, y: 100, p: 100) }
        hub.tick(now: Timestamp(microseconds: 500_000))
        XCTAssertEqual(hub.heldSlots(device: device), taken([0]), "the long press came first")
    }

    func testTwoFingersOneInTheRegion() {
        owner(wants: #"["previews"]"#, x: 0, width: 500)
        XCTAssertEqual(frame(0) {
            $0.slot(0, id: 1, x: 100, y: 100, p: 100)
            $0.slot(1, id: 2, x: 900, y: 900, p: 100)
        }, held([0]))
        XCTAssertEqual(frame(10) { $0.slot(0, id: -1) }, .none)
    }

    func testADeviceWhoseCloneDoesNotHoldHoldsNothing() {
        hub.holdTouches(device: device, false)
        owner(wants: #"["previews"]"#)
        XCTAssertEqual(frame(0) { $0.slot(0, id: 1, x: 100, y: 100, p: 100) }, .none)
        XCTAssertEqual(hub.nextDeadline, Timestamp(microseconds: 500_000), "the long press's own deadline only")
    }

    func testFilterMethodComesFromTheLastSectionThatSetsIt() throws {
        let config = try Configuration.parse("""
            [pressured]
            Filter = on
            FilterMethod = cancel
            [panel]
            MatchName = Test MT*
            FilterMethod = HOLD
            """, file: "f.conf")
        let mode = FilterMode.resolve(for: TestDevices.slotted, in: config)
        XCTAssertEqual(mode.method, .hold)
        XCTAssertEqual(mode.methodSource, "[panel] f.conf:6")
        let settings = try Configuration.parse("[pressured]\nFilter = on\nFilterMethod = cancel\n", file: "g.conf")
        XCTAssertEqual(FilterMode.resolve(for: TestDevices.slotted, in: settings).method, .cancel)
        XCTAssertEqual(FilterMode.resolve(for: TestDevices.slotted, in: settings).methodSource, "[pressured] g.conf:3")
        XCTAssertEqual(FilterMode.resolve(for: TestDevices.slotted, in: Configuration()).method, .hold, "the default")
        XCTAssertEqual(FilterMode.resolve(for: TestDevices.slotted, in: Configuration()).methodSource, "default")
        XCTAssertThrowsError(try Configuration.parse("[pressured]\nFilterMethod = palm\n", file: "h.conf")) { error in
            XCTAssertTrue("\(error)".contains("FilterMethod = palm"), "\(error)")
        }
    }
}
