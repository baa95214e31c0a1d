import TestSupport
import XCTest
@testable import PressureCore

/// A client that reads slowly, joins late, stops reading or stops sending still gets whole contacts:
/// every `began` it sees ends once, `moved` is coalesced (the newest state kept), never anything else, and
/// a connection ends with whole lines, the last one saying why.
final class HubBackPressureTests: XCTestCase {
    func read(_ hub: inout Hub, _ c: Int, into stream: inout ClientStream) {
        var bytes: [UInt8] = []
        hub.drain(client: c) { b in
            bytes += b
            return b.count
        }
        stream.take(String(decoding: bytes, as: UTF8.self))
    }

    func send(_ hub: inout Hub, _ c: Int, _ json: String) {
        hub.receive(client: c, line: Array(json.utf8)[...], now: Timestamp(microseconds: 0))
    }

    let touches = #"{"request":"subscribe","events":["gestures","touches"]}"#

    func testASlowReaderGetsEveryContactWholeAndItsLatestStateAndIsToldWhose() throws {
        var hub = Hub(configuration: try TestDevices.configuration(), queueCapacity: 4096)
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let c = hub.connect(mayControl: false)
        send(&hub, c, touches)
        var got = ClientStream()
        read(&hub, c, into: &got)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 10) }
        for i in 1...60 { s.frame(at: Int64(i)) { $0.slot(0, x: Int32(100 + i)) } }
        s.frame(at: 61) { $0.slot(1, id: 2, x: 900, y: 900, p: 10) }  // another finger taps, past the limit
        s.frame(at: 62) { $0.slot(1, id: -1) }
        s.frame(at: 70) { $0.slot(0, p: 900) }  // peek and pop
        hub.handle(device: dev, events: s.events[...])
        read(&hub, c, into: &got)
        XCTAssertEqual(got.problems, [])
        let first = got.phases(of: 1)
        XCTAssertEqual(first.first, "began")
        XCTAssertLessThan(first.count, 62, "moved was coalesced")
        XCTAssertEqual(got.phases(of: 2), ["began", "ended"], "never left out")
        XCTAssertTrue(got.types.contains("peek") && got.types.contains("pop"), "\(got.types)")
        let newest = got.lines.last { $0["contact"] as? Int == 1 && $0["type"] as? String == "touch" }
        XCTAssertEqual(newest?["x"] as? Int, 160, "the contact's latest position arrives")
        XCTAssertTrue(hub.takeWork().disconnects.isEmpty)

        // Once the queue has room again: which contact lost how many.
        read(&hub, c, into: &got)
        let notice = try XCTUnwrap(got.lines.last)
        XCTAssertEqual(notice["type"] as? String, "dropped")
        let listed = try XCTUnwrap(notice["contacts"] as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["contact"] as? Int }, [1])
        XCTAssertEqual(listed.first?["device"] as? Int, dev)
        XCTAssertEqual(listed.first?["moved"] as? Int, 61 - (first.count - 1), "every moved not delivered is counted")
        XCTAssertEqual(notice["touches"] as? Int, listed.first?["moved"] as? Int)

        s.events.removeAll()
        s.frame(at: 80) { $0.slot(0, id: -1) }
        hub.handle(device: dev, events: s.events[...])
        read(&hub, c, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.open, [])
    }

    func testAClientThatCannotTakeAGestureGetsItsContactsEndedAndTheErrorWhole() throws {
        var hub = Hub(configuration: try TestDevices.configuration(), queueCapacity: 2048)
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let stuck = hub.connect(mayControl: false)
        let fine = hub.connect(mayControl: false)
        send(&hub, stuck, touches)
        send(&hub, fine, #"{"request":"subscribe"}"#)
        var got = ClientStream()
        read(&hub, stuck, into: &got)
        _ = hub.takeWork()
        var fineGot = ClientStream()
        read(&hub, fine, into: &fineGot)
        var s = EventScript()
        for i in 0..<40 {  // 40 peeks and dismisses, never read by `stuck`
            s.frame(at: Int64(2 * i)) { $0.slot(0, id: Int32(i), x: 100, y: 100, p: 500) }
            s.frame(at: Int64(2 * i + 1)) { $0.slot(0, id: -1) }
            hub.handle(device: dev, events: s.events[...])
            s.events.removeAll()
            var frame = ClientStream()
            read(&hub, fine, into: &frame)
            XCTAssertEqual(frame.types, ["peek", "dismiss"], "the other client gets everything")
        }
        s.frame(at: 100) { $0.slot(0, id: 99, x: 100, y: 100, p: 10) }  // down as the stuck one goes
        hub.handle(device: dev, events: s.events[...])
        XCTAssertTrue(hub.takeWork().disconnects.isEmpty, "closed only once its last lines are written")
        XCTAssertFalse(hub.devices[0].pipeline.reportsTouches, "nobody listens to touches any more")
        read(&hub, stuck, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.open, [], "every contact it saw begin ended")
        let last = try XCTUnwrap(got.lines.last)
        XCTAssertEqual(last["error"] as? String, "too-slow")
        XCTAssertEqual(last["fatal"] as? Bool, true)
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [stuck])
    }

    func testAClientThatSendsRequestsAndNeverReadsIsDisconnectedWithTheErrorWhole() throws {
        var hub = Hub(configuration: try TestDevices.configuration(), queueCapacity: 4096)
        let c = hub.connect(mayControl: false)
        for i in 0..<200 { send(&hub, c, #"{"request":"ping","id":\#(i)}"#) }
        var got = ClientStream()
        read(&hub, c, into: &got)
        XCTAssertEqual(got.problems, [])
        let replies = got.lines.filter { $0["type"] as? String == "reply" }
        XCTAssertEqual(replies.map { $0["id"] as? Int }, (0..<replies.count).map { $0 }, "whole replies, in order")
        XCTAssertLessThan(replies.count, 200, "replies count as the queue's bytes")
        XCTAssertEqual(got.lines.last?["error"] as? String, "too-slow")
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [c])
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
        read(&hub, late, into: &got)
        send(&hub, late, touches)
        s.events.removeAll()
        s.frame(at: 10) { $0.slot(0, x: 160) }
        hub.handle(device: dev, events: s.events[...])
        read(&hub, late, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(Array(got.types.dropFirst()), ["reply", "touch", "touch"])
        XCTAssertEqual(got.phases(of: 1), ["began", "moved"])
        let began = try XCTUnwrap(got.lines.first { $0["phase"] as? String == "began" })
        XCTAssertEqual(began["x"] as? Int, 150, "its current state")
        XCTAssertEqual(began["time"] as? Double, 0.005)

        // Subscribing again to the same touches changes nothing; without them, the contact ends for it.
        send(&hub, late, touches)
        send(&hub, late, #"{"request":"subscribe"}"#)
        read(&hub, late, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.phases(of: 1), ["began", "moved", "cancelled"])
        XCTAssertEqual(got.lines.last?["x"] as? Int, 160)
        s.events.removeAll()
        s.frame(at: 20) { $0.slot(0, id: -1) }
        hub.handle(device: dev, events: s.events[...])
        read(&hub, late, into: &got)
        XCTAssertEqual(got.problems, [])
    }

    func testAClientWhoseInputEndedGetsItsAnswersThenIsClosed() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let c = hub.connect(mayControl: false)
        send(&hub, c, touches)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 10) }
        hub.handle(device: dev, events: s.events[...])
        send(&hub, c, #"{"request":"status","id":7}"#)
        hub.inputEnded(client: c)
        s.events.removeAll()
        s.frame(at: 10) { $0.slot(0, x: 200) }
        hub.handle(device: dev, events: s.events[...])
        XCTAssertTrue(hub.takeWork().disconnects.isEmpty, "its answers are not written yet")
        var got = ClientStream()
        read(&hub, c, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.types, ["hello", "reply", "touch", "reply", "touch"])
        XCTAssertEqual(got.lines[3]["id"] as? Int, 7)
        XCTAssertEqual(got.phases(of: 1), ["began", "cancelled"], "nothing after its input ended but the end")
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [c])
    }

    func testAReloadAskedBeforeEndOfInputIsAnsweredBeforeTheClose() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let c = hub.connect(mayControl: true)
        var got = ClientStream()
        read(&hub, c, into: &got)
        send(&hub, c, #"{"request":"reload","id":"r"}"#)
        hub.inputEnded(client: c)
        read(&hub, c, into: &got)
        let work = hub.takeWork()
        XCTAssertTrue(work.disconnects.isEmpty, "the reload is owed")
        let request = try XCTUnwrap(work.reloads.first)
        hub.reload(try TestDevices.configuration(), answering: request)
        read(&hub, c, into: &got)
        XCTAssertEqual(got.types, ["hello", "reply"])
        XCTAssertEqual(got.lines.last?["id"] as? String, "r")
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [c])
    }

    func testEndOfInputWithNothingOwedClosesAtOnce() throws {
        var hub = Hub(configuration: try TestDevices.configuration())
        let c = hub.connect(mayControl: false)
        var got = ClientStream()
        read(&hub, c, into: &got)
        _ = hub.takeWork()
        hub.inputEnded(client: c)
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [c])
        hub.disconnected(c)
        XCTAssertEqual(hub.status, DaemonStatus())
    }
}
