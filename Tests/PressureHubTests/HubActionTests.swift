import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// Actions in the hub (`docs/actions.md`): which action fires on which frame, where the finger is, that
/// the touch is taken from that frame (the slots filter mode's clone cancels), and what stays as before.
final class HubActionTests: XCTestCase {
    var hub = Hub(configuration: Configuration())
    var device = 0

    /// A hub with the test calibration and `actions` (the `[action]` sections).
    func start(_ actions: String) throws {
        hub = Hub(configuration: try TestDevices.configuration(actions))
        device = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
    }

    /// One frame at `ms`: the actions that fired in it and the slots the clone would mark after it.
    func frame(_ ms: Int64, _ body: (inout EventScript) -> Void) -> (fired: [FiredAction], cancelled: [Int]) {
        var s = EventScript()
        s.frame(at: ms, body)
        hub.handle(device: device, events: s.events[...])
        return (hub.takeWork().actions, hub.cancelledSlots(device: device, palms: false))
    }

    /// Down in slot 1 at (1024, 3072) of the 4096-unit axes, pressed to a peek at 20 ms, a pop at 30, lifted at 40.
    func firmPress(x: Int32 = 1024, y: Int32 = 3072) -> [(fired: [FiredAction], cancelled: [Int])] {
        [
            frame(0) { $0.slot(1, id: 5, x: x, y: y, p: 100) },
            frame(10) { $0.slot(1, p: 200) },
            frame(20) { $0.slot(1, p: 500) },
            frame(30) { $0.slot(1, p: 900) },
            frame(40) { $0.slot(1, id: -1) },
        ]
    }

    func testAPopIsARightClickWhereTheFingerIsAndTakesTheTouch() throws {
        try start("[action]\nGesture = pop\nDoes = rightClick\n")
        let seen = firmPress()
        XCTAssertEqual(seen.map(\.fired.count), [0, 0, 0, 1, 0], "fired on the pop's frame alone")
        XCTAssertEqual(seen.map(\.cancelled), [[], [], [], [1], []], "taken from the pop until the lift")
        let fired = try XCTUnwrap(seen[3].fired.first)
        XCTAssertEqual(fired.action, .click(.right))
        XCTAssertEqual(fired.time, Timestamp(microseconds: 30_000))
        XCTAssertEqual(fired.x, 1024.0 / 4095, accuracy: 1e-9)
        XCTAssertEqual(fired.y, 3072.0 / 4095, accuracy: 1e-9)
        XCTAssertEqual(
            fired.events.map { [Int($0.type), Int($0.code), Int($0.value)] },
            [[3, 0, 8194], [3, 1, 24582], [0, 0, 0], [1, 0x111, 1], [0, 0, 0], [1, 0x111, 0], [0, 0, 0]])
    }

    func testWithoutActionSectionsNothingFiresAndNothingIsTaken() throws {
        try start("")
        XCTAssertTrue(firmPress().allSatisfy { $0.fired.isEmpty && $0.cancelled.isEmpty })
        XCTAssertTrue(hub.actions(ofDevice: device).isEmpty)
        XCTAssertFalse(hub.actionWouldTake(device: device, screenX: 10, screenY: 10))
    }

    func testAPeekActionFiresOnThePeekAndTheTouchFiresNoOther() throws {
        try start("[action]\nGesture = peek\nDoes = key:Ctrl+C\n[action]\nGesture = pop\nDoes = rightClick\n")
        let seen = firmPress()
        XCTAssertEqual(seen.map(\.fired.count), [0, 0, 1, 0, 0], "one action a touch: the pop fires none")
        XCTAssertEqual(seen[2].fired.first?.action.description, "key:Ctrl+C")
        XCTAssertEqual(seen.map(\.cancelled), [[], [], [1], [1], []])
    }

    func testAnAreaOutsideTheTouchLeavesItTheApps() throws {
        try start("[action]\nGesture = pop\nDoes = rightClick\nArea = 1000x1000+0+0\n")
        XCTAssertTrue(firmPress().allSatisfy { $0.fired.isEmpty && $0.cancelled.isEmpty })
        XCTAssertEqual(firmPress(x: 500, y: 500).map(\.fired.count), [0, 0, 0, 1, 0])
        XCTAssertTrue(hub.actionWouldTake(device: device, screenX: 10, screenY: 10))
        XCTAssertFalse(hub.actionWouldTake(device: device, screenX: 2000, screenY: 10))
    }

    func testATouchThatBeganInARegionIsTheAppsNeverAnAction() throws {
        try start("[action]\nGesture = pop\nDoes = rightClick\n")
        let c = hub.connect(mayControl: false)
        for line in [#"{"request":"subscribe"}"#,
                     #"{"request":"setRegion","region":"r","x":0,"y":0,"width":2000,"height":5000,"wants":["longPress"]}"#] {
            hub.receive(client: c, line: Array(line.utf8)[...], now: Timestamp(microseconds: 0))
        }
        XCTAssertTrue(firmPress().allSatisfy { $0.fired.isEmpty && $0.cancelled.isEmpty }, "in the region")
        XCTAssertFalse(hub.actionWouldTake(device: device, screenX: 10, screenY: 10))
        XCTAssertEqual(firmPress(x: 3000).map(\.fired.count), [0, 0, 0, 1, 0], "outside it")
    }

    func testForceOffTurnsForceActionsOffAndTheHoldStays() throws {
        try start("[pressured]\nForceTouch = off\n[action]\nGesture = pop\nDoes = rightClick\n"
            + "[action]\nGesture = longPress\nDoes = middleClick\n")
        XCTAssertTrue(firmPress().allSatisfy { $0.fired.isEmpty })
        let down = frame(0) { $0.slot(0, id: 7, x: 100, y: 100, p: 100) }
        XCTAssertEqual(down.fired, [])
        let contact = try XCTUnwrap(hub.devices.entries[0].pipeline.currentTouches(.began, at: Timestamp(microseconds: 0)).first?.contact)
        XCTAssertEqual(hub.actionGestures(armedFor: ContactKey(device: device, contact: contact)), [.longPress],
                       "force off: the pop is not armed, the hold is")
        hub.tick(now: Timestamp(microseconds: 600_000))
        let work = hub.takeWork()
        XCTAssertEqual(work.actions.map(\.action), [.click(.middle)], "the long press fires from the timer")
        XCTAssertEqual(hub.cancelledSlots(device: device, palms: false), [0])
        let key = ContactKey(device: device, contact: try XCTUnwrap(work.actions.first).contact)
        XCTAssertTrue(hub.actionMayTake(key))
        XCTAssertEqual(frame(700) { $0.slot(0, id: -1) }.cancelled, [])
        XCTAssertFalse(hub.actionMayTake(key))
    }

    func testAReloadBringsActionsAndTakesThemAway() throws {
        try start("")
        hub.reload(try TestDevices.configuration("[action]\nGesture = pop\nDoes = key:Menu\n"))
        XCTAssertEqual(hub.actions(ofDevice: device).actions.map(\.description), ["pop → key:Menu"])
        XCTAssertEqual(firmPress().map(\.fired.count), [0, 0, 0, 1, 0])
        hub.reload(try TestDevices.configuration())
        XCTAssertTrue(hub.actions(ofDevice: device).isEmpty)
        XCTAssertTrue(firmPress().allSatisfy { $0.fired.isEmpty })
    }

    func testATouchpadHasNoActions() throws {
        try start("[action]\nGesture = pop\nDoes = rightClick\n")
        var touchpad = TestDevices.slotted
        touchpad.properties = [InputProperty.pointer]
        let pad = try XCTUnwrap(hub.addDevice(node: "p", description: touchpad))
        XCTAssertTrue(hub.actions(ofDevice: pad).isEmpty)
        XCTAssertFalse(hub.actions(ofDevice: device).isEmpty)
    }

    func testStatusSaysWhichActionsAreInForce() throws {
        try start("[action]\nGesture = longPress\nDoes = rightClick\nArea = 100x100+0+0 50x50+200+200\n")
        let c = hub.connect(mayControl: false)
        hub.receive(client: c, line: Array(#"{"request":"status","id":1}"#.utf8)[...], now: Timestamp(microseconds: 0))
        let line = try XCTUnwrap(hub.drainedLines(c).last)
        XCTAssertTrue(line.hasSuffix(
            #","actions":[{"device":1,"gesture":"longPress","does":"rightClick","areas":["100x100+0+0","50x50+200+200"],"#
                + #""source":"[action] test.conf:4"}]}"#), line)
        try start("")
        let d = hub.connect(mayControl: false)
        hub.receive(client: d, line: Array(#"{"request":"status","id":1}"#.utf8)[...], now: Timestamp(microseconds: 0))
        XCTAssertFalse(try XCTUnwrap(hub.drainedLines(d).last).contains("actions"), "none: no key")
    }

    /// A reload that takes the actions away while a taken touch is down: the touch is followed to its end,
    /// and only then does the device stop reporting touches.
    func testATouchTakenBeforeAReloadStaysTakenUntilItLifts() throws {
        try start("[action]\nGesture = pop\nDoes = rightClick\n")
        let seen = [
            frame(0) { $0.slot(1, id: 5, x: 100, y: 100, p: 100) },
            frame(10) { $0.slot(1, p: 500) },
            frame(20) { $0.slot(1, p: 900) },
        ]
        XCTAssertEqual(seen.map(\.fired.count), [0, 0, 1])
        hub.reload(try TestDevices.configuration())
        XCTAssertTrue(hub.devices.entries[0].pipeline.reportsTouches, "the taken touch is still down")
        XCTAssertEqual(frame(30) { $0.slot(1, p: 800) }.cancelled, [1])
        XCTAssertEqual(frame(40) { $0.slot(1, id: -1) }.cancelled, [])
        XCTAssertFalse(hub.devices.entries[0].pipeline.reportsTouches, "nothing needs touches any longer")
        XCTAssertTrue(hub.actions.isEmpty)
    }
}
