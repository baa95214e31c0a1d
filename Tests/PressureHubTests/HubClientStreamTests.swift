import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import TestSupport
import XCTest

/// Each client's stream is whole whenever it joins or leaves: a subscription that starts while a finger
/// is down starts with its `began`; one that joins mid-peek gets nothing of that peek; a stream that stops
/// (subscribing without, end of file) ends the peeks and contacts open for it; and a client whose input
/// ended gets the answers it is owed, then is closed.
final class HubClientStreamTests: XCTestCase {
    let touches = #"{"request":"subscribe","events":["gestures","touches"]}"#

    /// Gives the hub the test device and one client subscribed to gestures and touches.
    func subscribe(_ hub: inout Hub) throws -> (device: Int, client: Int) {
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let c = hub.connect(mayControl: false)
        hub.request(c, touches)
        return (dev, c)
    }

    /// A finger down at 0 ms, pressed to a peek at 10 ms (the fixtures' calibration: force from the start).
    func peekingFinger(_ hub: inout Hub, _ dev: Int) {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 100) }
        s.frame(at: 10) { $0.slot(0, p: 500) }
        hub.handle(device: dev, events: s.events[...])
    }

    func testAClientThatJoinsMidPeekGetsNothingOfThatPeek() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let early = hub.connect(mayControl: false)
        hub.request(early, #"{"request":"subscribe"}"#)
        peekingFinger(&hub, dev)
        let late = hub.connect(mayControl: false)
        hub.request(late, #"{"request":"subscribe"}"#)
        var s = EventScript()
        s.frame(at: 20) { $0.slot(0, p: 900) }  // pop
        s.frame(at: 30) { $0.slot(0, id: -1) }
        s.frame(at: 40) { $0.slot(0, id: 2, x: 100, y: 100, p: 500) }  // a new press: all of it for both
        s.frame(at: 50) { $0.slot(0, id: -1) }
        hub.handle(device: dev, events: s.events[...])
        var earlyGot = ClientStream(), lateGot = ClientStream()
        hub.read(early, into: &earlyGot)
        hub.read(late, into: &lateGot)
        XCTAssertEqual(earlyGot.problems, [])
        XCTAssertEqual(lateGot.problems, [])
        XCTAssertEqual(earlyGot.types, ["hello", "reply", "peek", "pop", "peek", "dismiss"])
        XCTAssertEqual(lateGot.types, ["hello", "reply", "peek", "dismiss"], "no pop of a peek it never saw")
    }

    func testAPeekAndAContactOpenWhenTheStreamStopsAreEndedDismissFirst() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let leaving = hub.connect(mayControl: false)
        let closing = hub.connect(mayControl: false)
        hub.request(leaving, touches)
        hub.request(closing, touches)
        peekingFinger(&hub, dev)
        var leftGot = ClientStream(), closedGot = ClientStream()
        hub.read(leaving, into: &leftGot)
        hub.read(closing, into: &closedGot)
        hub.request(leaving, #"{"request":"subscribe","events":["devices"]}"#)  // neither gestures nor touches
        hub.inputEnded(client: closing)
        hub.read(leaving, into: &leftGot)
        hub.read(closing, into: &closedGot)
        for got in [leftGot, closedGot] {
            XCTAssertEqual(got.problems, [])
            XCTAssertEqual(got.open, [])
            XCTAssertEqual(got.openPeeks, [])
        }
        XCTAssertEqual(Array(leftGot.types.suffix(3)), ["reply", "dismiss", "touch"])
        XCTAssertEqual(Array(closedGot.types.suffix(2)), ["dismiss", "touch"])
        XCTAssertEqual(closedGot.phases(of: 1).last, "cancelled")
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [closing])
        var s = EventScript()
        s.frame(at: 20) { $0.slot(0, p: 900) }  // the pop goes to nobody who left
        hub.handle(device: dev, events: s.events[...])
        hub.read(leaving, into: &leftGot)
        XCTAssertEqual(leftGot.problems, [])
        XCTAssertEqual(leftGot.types.last, "touch")
    }

    func testStoppingTouchesMidPeekDismissesThePeekBeforeTheCancelledAndNothingFollows() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, c) = try subscribe(&hub)
        let gesturesOnly = hub.connect(mayControl: false)
        hub.request(gesturesOnly, #"{"request":"subscribe"}"#)
        peekingFinger(&hub, dev)
        var got = ClientStream(), othersGot = ClientStream()
        hub.read(c, into: &got)
        hub.request(c, #"{"request":"subscribe","events":["gestures"]}"#)  // touches no more, gestures still
        var s = EventScript()
        s.frame(at: 20) { $0.slot(0, p: 900) }  // a pop, for the client that still follows the peek
        s.frame(at: 30) { $0.slot(0, id: -1) }
        hub.handle(device: dev, events: s.events[...])
        hub.read(c, into: &got)
        hub.read(gesturesOnly, into: &othersGot)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.open, [])
        XCTAssertEqual(got.openPeeks, [])
        XCTAssertEqual(Array(got.types.suffix(3)), ["reply", "dismiss", "touch"], "the peek ends first, nothing after")
        XCTAssertEqual(got.phases(of: 1).last, "cancelled")
        XCTAssertEqual(othersGot.problems, [])
        XCTAssertEqual(othersGot.types, ["hello", "reply", "peek", "pop"], "the others' peek goes on")
    }

    func testSubscribingWhileAFingerIsDownStartsWithItsBeganAndLeavingEndsIt() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 10) }
        s.frame(at: 5) { $0.slot(0, x: 150) }
        hub.handle(device: dev, events: s.events[...])
        let late = hub.connect(mayControl: false)
        var got = ClientStream()
        hub.read(late, into: &got)
        hub.request(late, touches)
        s.events.removeAll()
        s.frame(at: 10) { $0.slot(0, x: 160) }
        hub.handle(device: dev, events: s.events[...])
        hub.read(late, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(Array(got.types.dropFirst()), ["reply", "touch", "touch"])
        XCTAssertEqual(got.phases(of: 1), ["began", "moved"])
        let began = try XCTUnwrap(got.lines.first { $0["phase"] as? String == "began" })
        XCTAssertEqual(began["x"] as? Int, 150, "its current state")
        XCTAssertEqual(began["time"] as? Double, 0.005)

        // Subscribing again to the same touches changes nothing; without them, the contact ends for it.
        hub.request(late, touches)
        hub.request(late, #"{"request":"subscribe"}"#)
        hub.read(late, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.phases(of: 1), ["began", "moved", "cancelled"])
        XCTAssertEqual(got.lines.last?["x"] as? Int, 160)
        s.events.removeAll()
        s.frame(at: 20) { $0.slot(0, id: -1) }
        hub.handle(device: dev, events: s.events[...])
        hub.read(late, into: &got)
        XCTAssertEqual(got.problems, [])
    }

    func testAClientWhoseInputEndedGetsItsAnswersThenIsClosed() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, c) = try subscribe(&hub)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 10) }
        hub.handle(device: dev, events: s.events[...])
        hub.request(c, #"{"request":"status","id":7}"#)
        hub.inputEnded(client: c)
        s.events.removeAll()
        s.frame(at: 10) { $0.slot(0, x: 200) }
        hub.handle(device: dev, events: s.events[...])
        XCTAssertTrue(hub.takeWork().disconnects.isEmpty, "its answers are not written yet")
        var got = ClientStream()
        hub.read(c, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.types, ["hello", "reply", "touch", "reply", "touch"])
        XCTAssertEqual(got.lines[3]["id"] as? Int, 7)
        XCTAssertEqual(got.phases(of: 1), ["began", "cancelled"], "nothing after its input ended but the end")
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [c])
    }

    /// What a device's subscribers are sent is decided from bits kept beside the subscription and the
    /// standing (`ClientListening`): a client whose input ended is still subscribed, but no longer open.
    func testAClientWhoseInputEndedHearsNoNewContactNorGesture() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, c) = try subscribe(&hub)
        hub.request(c, #"{"request":"status","id":7}"#)
        hub.inputEnded(client: c)
        peekingFinger(&hub, dev)
        var got = ClientStream()
        hub.read(c, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.types, ["hello", "reply", "reply"], "its answers, no touch and no peek")
    }

    func testAReloadAskedBeforeEndOfInputIsAnsweredBeforeTheClose() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let c = hub.connect(mayControl: true)
        var got = ClientStream()
        hub.read(c, into: &got)
        hub.request(c, #"{"request":"reload","id":"r"}"#)
        hub.inputEnded(client: c)
        hub.read(c, into: &got)
        let work = hub.takeWork()
        XCTAssertTrue(work.disconnects.isEmpty, "the reload is owed")
        let request = try XCTUnwrap(work.reloads.first)
        hub.reload(try TestDevices.configuration(), answering: request)
        hub.read(c, into: &got)
        XCTAssertEqual(got.types, ["hello", "reply"])
        XCTAssertEqual(got.lines.last?["id"] as? String, "r")
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [c])
    }

    func testEndOfInputWithNothingOwedClosesAtOnce() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let c = hub.connect(mayControl: false)
        var got = ClientStream()
        hub.read(c, into: &got)
        _ = hub.takeWork()
        hub.inputEnded(client: c)
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [c])
        hub.disconnected(c)
        XCTAssertEqual(hub.status, DaemonStatus())
    }
}

extension HubClientStreamTests {
    /// A contact that ended for a client (its touch stream stopped while the finger stayed down) is over
    /// for it: no gesture of it, and no second `began` when it hears touches again.
    func testAContactEndedForAClientStaysEndedForIt() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, c) = try subscribe(&hub)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 100) }
        hub.handle(device: dev, events: s.events[...])
        hub.request(c, #"{"request":"subscribe"}"#)  // gestures only: the contact is cancelled for it
        s.events.removeAll()
        s.frame(at: 10) { $0.slot(0, p: 500) }  // a peek of the finger it saw end
        hub.handle(device: dev, events: s.events[...])
        hub.request(c, touches)  // touches again: still nothing of that finger
        s.events.removeAll()
        s.frame(at: 20) { $0.slot(0, x: 120, p: 900) }  // pop, moved
        s.frame(at: 30) { $0.slot(0, id: -1) }
        s.frame(at: 40) { $0.slot(0, id: 2, x: 100, y: 100, p: 100) }  // a new finger: all of it
        s.frame(at: 50) { $0.slot(0, id: -1) }
        hub.handle(device: dev, events: s.events[...])
        var got = ClientStream()
        hub.read(c, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.phases(of: 1), ["began", "cancelled"])
        XCTAssertEqual(got.phases(of: 2), ["began", "ended"])
        XCTAssertFalse(got.types.contains("peek"), "\(got.types)")
    }
}

extension HubClientStreamTests {
    /// The daemon stopping ends every client's streams before `bye`, as a device going would; the
    /// device's own ends that come after are not sent again.
    func testShutdownEndsThePeeksAndContactsOpenForEachClientBeforeBye() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let (dev, c) = try subscribe(&hub)
        peekingFinger(&hub, dev)
        hub.shutdown(reason: "shutdown")
        hub.removeDevice(dev)
        var got = ClientStream()
        hub.read(c, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.open, [])
        XCTAssertEqual(got.openPeeks, [])
        XCTAssertEqual(Array(got.types.suffix(3)), ["dismiss", "touch", "bye"])
        XCTAssertEqual(got.phases(of: 1), ["began", "moved", "cancelled"], "one end: the device's after bye is not sent")
    }
}
