import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
@testable import PressureProtocol
import XCTest

/// The fan-out (`LineFanout.swift`), driven through the client table: a line or a run of lines reaches
/// exactly the clients it is for, once encoded, shared by those that keep up and queued for the others.
final class LineFanoutTests: XCTestCase {
    static func event(_ kind: PressureEvent.Kind, device: Int = 1, contact: UInt64, x: Int32 = 100) -> PressureEvent {
        PressureEvent(kind: kind, time: Timestamp(microseconds: 1000 + Int64(x)), device: device, contact: contact,
                      x: x, y: 200, force: 1.5, maximumPossibleForce: 4)
    }

    static func encoded(_ events: [PressureEvent]) -> [UInt8] {
        var out: [UInt8] = []
        for e in events { WireFormat.append(e, to: &out) }
        return out
    }

    /// What the client's socket takes, at most `limit` bytes, and what it is told it lost.
    func read(_ t: inout ClientTable, _ id: Int, limit: Int = .max, _ work: inout Hub.Work) -> ([UInt8], DroppedTouches?) {
        var got: [UInt8] = []
        let lost = t.drain(id, owesAnswer: false, { got += $0.prefix(limit); return min($0.count, limit) }, &work)
        return (got, lost)
    }

    func testALineGoesOnceEncodedToEveryClientSubscribedToIt() {
        var t = ClientTable(queueCapacity: 64 * 1024)
        var work = Hub.Work()
        let all = t.connect(peer: .unknown), mine = t.connect(peer: .unknown), other = t.connect(peer: .unknown)
        let gestures = t.connect(peer: .unknown), none = t.connect(peer: .unknown)
        t.subscribe(all, Subscription(gestures: true, touches: true))
        t.subscribe(mine, Subscription(gestures: false, touches: true, deviceIDs: [1]))
        t.subscribe(other, Subscription(gestures: true, touches: true, deviceIDs: [2]))
        t.subscribe(gestures, Subscription(gestures: true, touches: false))
        let began = Self.event(.touch(.began), contact: 7)
        let sent = t.send(.event(began), to: .subscribers(device: 1, touches: true), &work)
        XCTAssertEqual(sent.clients, 2)
        XCTAssertFalse(sent.closedAny)
        XCTAssertEqual(t.sharers, 2, "both recipients' queues were empty: they share the line")
        XCTAssertEqual(t.shared, Self.encoded([began]), "the line is in the shared lines once")
        XCTAssertEqual(work.writable, [all, mine])
        XCTAssertEqual(t.openTouches(of: all), [ContactKey(device: 1, contact: 7)])
        XCTAssertEqual(t.openTouches(of: other), [])
        for id in [all, mine] { XCTAssertEqual(read(&t, id, &work).0, Self.encoded([began])) }
        for id in [other, gestures, none] { XCTAssertEqual(read(&t, id, &work).0, [], "client \(id)") }
    }

    func testARunOfMovedLinesIsSharedByReadersThatKeepUpAndQueuedLineByLineForTheOthers() {
        var t = ClientTable(queueCapacity: 64 * 1024)
        var work = Hub.Work()
        let keepsUp = t.connect(peer: .unknown), behind = t.connect(peer: .unknown), other = t.connect(peer: .unknown)
        for id in [keepsUp, behind] { t.subscribe(id, Subscription(gestures: true, touches: true)) }
        t.subscribe(other, Subscription(gestures: true, touches: true, deviceIDs: [2]))
        // `behind` reads part of a line: the rest waits in its queue, so it cannot share the run.
        let began = (1...5).map { Self.event(.touch(.began), contact: UInt64($0)) }
        for e in began { t.send(.event(e), to: .subscribers(device: 1, touches: true), &work) }
        XCTAssertEqual(read(&t, keepsUp, &work).0, Self.encoded(began))
        let head = read(&t, behind, limit: 10, &work).0
        let moved = (1...5).map { Self.event(.touch(.moved), contact: UInt64($0), x: 300) }
        for e in moved { t.gatherMoved(e) }
        XCTAssertTrue(t.hasGathered)
        let sent = t.sendGathered(&work)
        XCTAssertFalse(t.hasGathered)
        XCTAssertEqual(sent.clients, 10, "five lines for each of two clients")
        XCTAssertEqual(t.sharers, 1, "the reader that keeps up shares the run")
        XCTAssertEqual(t.shared, Self.encoded(moved))
        XCTAssertEqual(read(&t, keepsUp, &work).0, Self.encoded(moved))
        XCTAssertEqual(head + read(&t, behind, &work).0, Self.encoded(began + moved))
        XCTAssertEqual(read(&t, other, &work).0, [], "subscribed to another device")
    }

    func testAClientThatFallsBehindMidRunHasItsMovedLinesCoalescedAndIsToldOfTheLosses() {
        var t = ClientTable(queueCapacity: 1024)  // a touch limit of 512 bytes
        var work = Hub.Work()
        let slow = t.connect(peer: .unknown)
        t.subscribe(slow, Subscription(gestures: true, touches: true))
        let frames = (0..<2).map { f in (1...10).map { Self.event(.touch(.moved), contact: UInt64($0), x: Int32(100 + f)) } }
        XCTAssertGreaterThan(Self.encoded(frames[0]).count, 512, "a run passes the touch limit")
        var queued = 0
        for frame in frames {
            for e in frame { t.gatherMoved(e) }
            let sent = t.sendGathered(&work)
            XCTAssertFalse(sent.closedAny, "a `moved` never fills a queue")
            queued += sent.clients
        }
        XCTAssertEqual(queued, 20)
        XCTAssertEqual(t.sharers, 0, "its share passed the touch limit mid-run: it went to its queue")
        let (got, lost) = read(&t, slow, &work)
        let lines = got.filter { $0 == UInt8(ascii: "\n") }.count
        XCTAssertEqual(got.last, UInt8(ascii: "\n"), "whole lines")
        XCTAssertGreaterThan(lost?.touches ?? 0, 0)
        XCTAssertEqual(lines + (lost?.touches ?? 0), 20, "every line was written or counted lost")
        XCTAssertTrue(lost?.contacts.allSatisfy { $0.device == 1 && (1...10).contains($0.contact) } ?? false)
    }

    func testLinesGoOnlyToTheClientsTheirRecipientsAndSubscriptionsName() {
        var t = ClientTable(queueCapacity: 64 * 1024)
        var work = Hub.Work()
        let watcher = t.connect(peer: .unknown), app = t.connect(peer: .unknown), gestures = t.connect(peer: .unknown)
        t.subscribe(watcher, Subscription(gestures: false, touches: false, devices: true))
        var asApp = Subscription(gestures: true, touches: false)
        asApp.app = "org.example"
        t.subscribe(app, asApp)
        t.subscribe(gestures, Subscription(gestures: true, touches: false, deviceIDs: [1]))
        let notice = ClientTable.Line.message(.action(app: "org.example", action: "x"))
        XCTAssertEqual(t.send(notice, to: .app("org.example"), &work).clients, 1)
        XCTAssertEqual(t.send(notice, to: .deviceWatchers, &work).clients, 1)
        XCTAssertEqual(t.send(notice, to: .client(gestures), &work).clients, 1)
        XCTAssertEqual(t.send(notice, to: .everyone, &work).clients, 3)
        let peek = Self.event(.gesture(.peek), contact: 3)
        XCTAssertEqual(t.send(.event(peek), to: .subscribers(device: 1, touches: false), &work).clients, 2)
        XCTAssertEqual(t.send(.event(peek), to: .subscribers(device: 2, touches: false), &work).clients, 1,
                       "only the client of every device")
        t.gatherMoved(Self.event(.touch(.moved), contact: 3))
        XCTAssertFalse(t.hasGathered, "nobody hears touches: nothing is encoded")
        var line: [UInt8] = []
        ServerMessage.action(app: "org.example", action: "x").append(to: &line)
        XCTAssertEqual(read(&t, watcher, &work).0, line + line)
        XCTAssertEqual(t.openPeeks(of: gestures).map(\.key), [ContactKey(device: 1, contact: 3)])
    }
}
