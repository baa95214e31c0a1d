import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// Actions over a recorded session, as the daemon's loop takes a filtered panel's frames
/// (`DevicesHandler.passThrough`): each frame through the hub, then to the clone with the slots the hub
/// cancels (``CloneRewriter``), the long presses due from the timer first; what the action pointer and
/// keyboard are written (``FiredAction/events``) beside what the clone is.
final class HubActionReplayTests: XCTestCase {
    struct Outcome {
        var fired: [FiredAction] = []
        /// The clone's events that make a slot a palm (`ABS_MT_TOOL_TYPE` `MT_TOOL_PALM`), one per cancel.
        var palms = 0
        /// The contacts that began on the clone (a tracking id other than -1 written).
        var began = 0
        var frames = 0
    }

    /// Replays the fixture `name` through a hub with the configuration `text`, a frame at a time, to a clone
    /// that cancels or (`holding`) holds.
    func replay(_ name: String, _ text: String, holding: Bool = false) throws -> Outcome {
        let capture = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent(name))
        var hub = Hub(configuration: try Configuration.parse(text, file: "actions.conf"))
        let id = try XCTUnwrap(hub.addDevice(node: "replay", description: capture.device))
        guard case .slotted(let slots) = try TouchDevice(capture.device).contactProtocol else {
            throw XCTSkip("not a slotted panel")
        }
        var clone = CloneRewriter(slots: slots, mode: holding ? .hold : .cancel, buttons: [KeyCode.btnTouch])
        hub.holdTouches(device: id, holding)
        var outcome = Outcome()
        var written: [InputEvent] = []
        var start = 0
        let events = capture.events
        for k in events.indices where events[k].type == EventType.syn && events[k].code == SynCode.report {
            written.removeAll()
            if let due = hub.nextDeadline, due <= events[start].time {
                hub.tick(now: due)
                clone.settle(cancelling: hub.cancelledSlots(device: id, palms: false), holds: hub.heldSlots(device: id), into: &written)
            }
            outcome.fired += hub.takeWork().actions
            hub.handle(device: id, events: events[start...k])
            outcome.fired += hub.takeWork().actions
            clone.rewrite(events[start...k], cancelling: hub.cancelledSlots(device: id, palms: false),
                          holds: hub.heldSlots(device: id), into: &written)
            outcome.palms += written.filter {
                $0.type == EventType.abs && $0.code == AbsCode.mtToolType && $0.value == MTTool.palm
            }.count
            outcome.began += written.filter { $0.type == EventType.abs && $0.code == AbsCode.mtTrackingID && $0.value >= 0 }.count
            outcome.frames += 1
            start = k + 1
        }
        return outcome
    }

    func testAPopIsARightClickAndItsTouchIsCancelledOnTheClone() throws {
        let none = try replay("peek-pop.evemu", "")
        XCTAssertEqual(none.fired, [])
        XCTAssertEqual(none.palms, 0, "without actions nothing is cancelled")

        let out = try replay("peek-pop.evemu", "[action]\nGesture = pop\nDoes = rightClick\n")
        XCTAssertEqual(out.fired.map(\.action), [.click(.right)], "the recording's one pop")
        XCTAssertEqual(out.fired.first?.time, Timestamp(microseconds: 1_924_000), "on the pop's frame")
        XCTAssertEqual(out.palms, 1, "the touch that popped, cancelled; the peek that was dismissed clicks")
        let pointer = try XCTUnwrap(out.fired.first).events
        XCTAssertEqual(pointer.map(\.type), [3, 3, 0, 1, 0, 1, 0])
        XCTAssertEqual(pointer.filter { $0.type == EventType.key }.map(\.code), [KeyCode.btnRight, KeyCode.btnRight])
    }

    func testAHoldPressesAKeyAndAPeekElsewhereIsLeftAlone() throws {
        let out = try replay("quick-actions-hold.evemu", """
            [action]
            Gesture = longPress
            Does = key:Ctrl+C
            """)
        XCTAssertEqual(out.fired.map(\.action.description), ["key:Ctrl+C"], "the recording's one long press")
        XCTAssertEqual(out.palms, 1)
        XCTAssertEqual(
            try XCTUnwrap(out.fired.first).events.filter { $0.type == EventType.key }.map { [$0.code, UInt16($0.value)] },
            [[0x1d, 1], [0x2e, 1], [0x2e, 0], [0x1d, 0]])
    }

    func testForceOffLeavesThePopToTheApp() throws {
        let out = try replay("peek-pop.evemu", "[pressured]\nForceTouch = off\n[action]\nGesture = pop\nDoes = rightClick\n")
        XCTAssertEqual(out.fired, [])
        XCTAssertEqual(out.palms, 0)
    }

    /// Under hold, a touch an action may take is held from its begin: the one that popped never reaches the
    /// clone (nothing to cancel), every other touch does, whole.
    func testUnderHoldThePoppedTouchNeverReachesTheClone() throws {
        let plain = try replay("peek-pop.evemu", "", holding: true)
        XCTAssertEqual(plain.palms, 0)
        XCTAssertGreaterThan(plain.began, 1)

        let out = try replay("peek-pop.evemu", "[action]\nGesture = pop\nDoes = rightClick\n", holding: true)
        XCTAssertEqual(out.fired.map(\.action), [.click(.right)])
        XCTAssertEqual(out.fired.first?.time, Timestamp(microseconds: 1_924_000), "on the pop's frame, as under cancel")
        XCTAssertEqual(out.palms, 0, "held, never shown: nothing to cancel")
        XCTAssertEqual(out.began, plain.began - 1, "every touch but the one that popped")
    }
}
