import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// Filter mode in the hub (`docs/filter.md`): which touches a gesture took, as the slots the clone marks
/// `MT_TOOL_PALM`, frame by frame; and where `Filter` comes from in the configuration.
final class HubFilterTests: XCTestCase {
    var hub = Hub(configuration: Configuration())
    var device = 0

    override func setUpWithError() throws {
        hub = Hub(configuration: try TestDevices.configuration())
        device = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
    }

    func send(_ c: Int, _ json: String) {
        hub.receive(client: c, line: Array(json.utf8)[...], now: Timestamp(microseconds: 0))
    }

    /// A client owning the whole screen, asking for `wants`.
    func owner(wants: String) {
        let c = hub.connect(mayControl: false)
        send(c, #"{"request":"subscribe"}"#)
        send(c, #"{"request":"setRegion","region":"all","x":0,"y":0,"width":5000,"height":5000,"wants":\#(wants)}"#)
    }

    /// One frame at `ms`, then the slots the clone would mark.
    func frame(_ ms: Int64, palms: Bool = false, _ body: (inout EventScript) -> Void) -> [Int] {
        var s = EventScript()
        s.frame(at: ms, body)
        hub.handle(device: device, events: s.events[...])
        return hub.cancelledSlots(device: device, palms: palms)
    }

    /// Down in slot 1, pressed to a peek at 20 ms, harder at 30, lifted at 40: the slots marked after each.
    func firmPress() -> [[Int]] {
        [
            frame(0) { $0.slot(1, id: 5, x: 100, y: 100, p: 100) },
            frame(10) { $0.slot(1, p: 200) },
            frame(20) { $0.slot(1, p: 500) },
            frame(30) { $0.slot(1, p: 900) },
            frame(40) { $0.slot(1, id: -1) },
        ]
    }

    func testAPeekInARegionThatWantsPreviewsTakesTheTouchFromItsFrameUntilTheLift() {
        owner(wants: #"["previews"]"#)
        XCTAssertEqual(firmPress(), [[], [], [1], [1], []], "marked on the peek's frame, gone with the lift")
    }

    func testATouchOutsideEveryRegionOrInOneThatDidNotAskIsNeverTaken() {
        XCTAssertEqual(firmPress(), [[], [], [], [], []], "no region: a firm press on a plain button still clicks")
        owner(wants: #"["longPress"]"#)
        XCTAssertEqual(firmPress(), [[], [], [], [], []], "a peek the region did not ask for")
    }

    func testALongPressInARegionThatWantsItTakesTheTouch() {
        owner(wants: #"["longPress"]"#)
        XCTAssertEqual(frame(0) { $0.slot(0, id: 7, x: 100, y: 100, p: 100) }, [])
        hub.tick(now: Timestamp(microseconds: 600_000))
        XCTAssertEqual(hub.cancelledSlots(device: device, palms: false), [0], "taken at the long press")
        XCTAssertEqual(frame(700) { $0.slot(0, id: -1) }, [])
    }

    func testTwoFingersOnlyTheOneThatPeekedIsTaken() {
        owner(wants: #"["previews"]"#)
        _ = frame(0) {
            $0.slot(0, id: 1, x: 100, y: 100, p: 100)
            $0.slot(1, id: 2, x: 900, y: 900, p: 100)
        }
        XCTAssertEqual(frame(10) { $0.slot(1, p: 500) }, [1])
        XCTAssertEqual(frame(20) { $0.slot(1, id: -1) }, [], "the one that peeked lifted")
        XCTAssertEqual(frame(30) { $0.slot(0, id: -1) }, [])
    }

    func testAFilterSettingComesFromTheLastSectionThatSetsIt() throws {
        let config = try Configuration.parse("""
            [pressured]
            Filter = on
            [panel]
            MatchName = Test MT*
            FilterPalms = on
            [other]
            MatchName = Nothing*
            Filter = off
            """, file: "f.conf")
        XCTAssertEqual(FilterMode.resolve(for: TestDevices.slotted, in: config), FilterMode(on: true, palms: true, source: "[pressured] f.conf:2"))
        XCTAssertEqual(FilterMode.resolve(for: TestDevices.slotted, in: Configuration()), FilterMode())
        let off = try Configuration.parse("[pressured]\nFilter = on\n[panel]\nMatchName = Test MT*\nFilter = off\n", file: "g.conf")
        XCTAssertEqual(FilterMode.resolve(for: TestDevices.slotted, in: off).on, false)
        XCTAssertThrowsError(try Configuration.parse("[pressured]\nFilter = maybe\n", file: "h.conf"))
    }

    /// In the hub: a firm press on a resistive panel in a region that wants previews is held from its
    /// first frame and cancelled in slot 0 (the clone's one slot) from its peek until the lift.
    func testAPeekOnASingleTouchPanelCancelsSlotZero() throws {
        var hub = Hub(configuration: try Configuration.parse("""
            [resistive]
            MatchName = Test Resistive Panel*
            PressureAverage = 60
            """, file: "t.conf"))
        let device = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.singleTouch))
        let c = hub.connect(mayControl: false)
        for line in [#"{"request":"subscribe"}"#,
                     #"{"request":"setRegion","region":"all","x":0,"y":0,"width":5000,"height":5000,"wants":["previews"]}"#] {
            hub.receive(client: c, line: Array(line.utf8)[...], now: Timestamp(microseconds: 0))
        }
        func step(_ ms: Int64, _ body: (inout EventScript) -> Void) -> (held: Bool, cancelled: [Int]) {
            var s = EventScript()
            s.frame(at: ms, body)
            hub.handle(device: device, events: s.events[...])
            return (hub.isHeld(device: device, slot: 0), hub.cancelledSlots(device: device, palms: false))
        }
        var seen = [step(0) { $0.single(x: 100, y: 100, p: 40, touch: 1) }]
        seen.append(step(10) { $0.single(p: 250) })
        seen.append(step(20) { $0.single(p: 0, touch: 0) })
        XCTAssertEqual(seen.map(\.held), [true, true, false])
        XCTAssertEqual(seen.map(\.cancelled), [[], [0], []])
    }
}
