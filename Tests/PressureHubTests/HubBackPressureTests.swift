import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import TestSupport
import XCTest

/// A client that reads slowly or stops reading still gets whole contacts: every `began` it sees ends once,
/// `moved` is coalesced (the newest state kept), never anything else, and a connection ends with whole
/// lines, the last one saying why.
final class HubBackPressureTests: XCTestCase {
    let touches = #"{"request":"subscribe","events":["gestures","touches"]}"#

    func testASlowReaderGetsEveryContactWholeAndItsLatestStateAndIsToldWhose() throws {
        var hub = Hub(configuration: try TestDevices.configuration(), queueCapacity: 4096)
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let c = hub.connect(mayControl: false)
        hub.request(c, touches)
        var got = ClientStream()
        hub.read(c, into: &got)
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 100, y: 100, p: 10) }
        for i in 1...60 { s.frame(at: Int64(i)) { $0.slot(0, x: Int32(100 + i)) } }
        s.frame(at: 61) { $0.slot(1, id: 2, x: 900, y: 900, p: 10) }  // another finger taps, past the limit
        s.frame(at: 62) { $0.slot(1, id: -1) }
        s.frame(at: 70) { $0.slot(0, p: 900) }  // peek and pop
        hub.handle(device: dev, events: s.events[...])
        hub.read(c, into: &got)
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
        hub.read(c, into: &got)
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
        hub.read(c, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.open, [])
    }

    func testAClientThatCannotTakeAGestureGetsItsContactsEndedAndTheErrorWhole() throws {
        var hub = Hub(configuration: try TestDevices.configuration(), queueCapacity: 2048)
        let dev = try XCTUnwrap(hub.addDevice(node: "n", description: TestDevices.slotted))
        let stuck = hub.connect(mayControl: false)
        let fine = hub.connect(mayControl: false)
        hub.request(stuck, touches)
        hub.request(fine, #"{"request":"subscribe"}"#)
        var got = ClientStream()
        hub.read(stuck, into: &got)
        _ = hub.takeWork()
        var fineGot = ClientStream()
        hub.read(fine, into: &fineGot)
        var s = EventScript()
        for i in 0..<40 {  // 40 peeks and dismisses, never read by `stuck`
            s.frame(at: Int64(2 * i)) { $0.slot(0, id: Int32(i), x: 100, y: 100, p: 500) }
            s.frame(at: Int64(2 * i + 1)) { $0.slot(0, id: -1) }
            hub.handle(device: dev, events: s.events[...])
            s.events.removeAll()
            var frame = ClientStream()
            hub.read(fine, into: &frame)
            XCTAssertEqual(frame.types, ["peek", "dismiss"], "the other client gets everything")
        }
        s.frame(at: 100) { $0.slot(0, id: 99, x: 100, y: 100, p: 10) }  // down as the stuck one goes
        hub.handle(device: dev, events: s.events[...])
        XCTAssertTrue(hub.takeWork().disconnects.isEmpty, "closed only once its last lines are written")
        XCTAssertFalse(hub.devices[0].pipeline.reportsTouches, "nobody listens to touches any more")
        hub.read(stuck, into: &got)
        XCTAssertEqual(got.problems, [])
        XCTAssertEqual(got.open, [], "every contact it saw begin ended")
        XCTAssertEqual(got.openPeeks, [], "every peek it saw ended")
        let last = try XCTUnwrap(got.lines.last)
        XCTAssertEqual(last["error"] as? String, "too-slow")
        XCTAssertEqual(last["fatal"] as? Bool, true)
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [stuck])
    }

    func testAClientThatSendsRequestsAndNeverReadsIsDisconnectedWithTheErrorWhole() throws {
        var hub = Hub(configuration: try TestDevices.configuration(), queueCapacity: 4096)
        let c = hub.connect(mayControl: false)
        for i in 0..<200 { hub.request(c, #"{"request":"ping","id":\#(i)}"#) }
        var got = ClientStream()
        hub.read(c, into: &got)
        XCTAssertEqual(got.problems, [])
        let replies = got.lines.filter { $0["type"] as? String == "reply" }
        XCTAssertEqual(replies.map { $0["id"] as? Int }, (0..<replies.count).map { $0 }, "whole replies, in order")
        XCTAssertLessThan(replies.count, 200, "replies count as the queue's bytes")
        XCTAssertEqual(got.lines.last?["error"] as? String, "too-slow")
        XCTAssertEqual(hub.takeWork().disconnects.map(\.client), [c])
    }

}
