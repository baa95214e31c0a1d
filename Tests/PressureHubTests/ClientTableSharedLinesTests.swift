@testable import PressureCore
@testable import PressureHub
@testable import PressureProtocol
import XCTest

/// Lines shared by the clients that keep up (`SharedLines.swift`): each client reads exactly its
/// own lines, in order, however the shared lines and its queue take turns.
final class ClientTableSharedLinesTests: XCTestCase {
    func line(_ s: String) -> ClientTable.Line { .message(.action(app: s, action: "x")) }

    func text(_ s: String) -> String {
        var out: [UInt8] = []
        ServerMessage.action(app: s, action: "x").append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// What the client's socket takes, at most `limit` bytes.
    func read(_ t: inout ClientTable, _ id: Int, limit: Int = .max, _ work: inout Hub.Work) -> String {
        var got: [UInt8] = []
        _ = t.drain(id, owesAnswer: false, { b in
            let n = min(b.count, limit)
            got += b.prefix(n)
            return n
        }, &work)
        return String(decoding: got, as: UTF8.self)
    }

    func testEachClientReadsItsOwnLinesInOrder() {
        var t = ClientTable(queueCapacity: 64 * 1024)
        var work = Hub.Work()
        let a = t.connect(peer: .unknown), b = t.connect(peer: .unknown), c = t.connect(peer: .unknown)
        t.send(line("all1"), to: .everyone, &work)
        XCTAssertEqual(t.sharers, 3, "empty queues: all three share the line")
        t.send(line("b-only"), to: .client(b), &work)  // a and c leave the shared lines
        XCTAssertEqual(t.sharers, 1)
        t.send(line("all2"), to: .everyone, &work)
        XCTAssertEqual(read(&t, a, &work), text("all1") + text("all2"))
        // b's socket takes a few bytes only: the rest goes to its queue, then comes out whole.
        XCTAssertEqual(read(&t, b, limit: 5, &work), String(text("all1").prefix(5)))
        XCTAssertEqual(t.sharers, 0)
        t.send(line("all3"), to: .everyone, &work)
        XCTAssertEqual(t.sharers, 1, "a (its queue empty) shares again; b's and c's queues hold bytes")
        XCTAssertEqual(read(&t, b, &work), String(text("all1").dropFirst(5)) + text("b-only") + text("all2") + text("all3"))
        XCTAssertEqual(read(&t, c, &work), text("all1") + text("all2") + text("all3"))
        XCTAssertEqual(read(&t, a, &work), text("all3"))
        XCTAssertEqual(t.sharers, 0)
        XCTAssertFalse(t.hasPendingBytes(a) || t.hasPendingBytes(b) || t.hasPendingBytes(c))
    }

    func testASharerLeavesBeforeItsShareWouldPassTheTouchLimit() {
        var t = ClientTable(queueCapacity: 4096)
        var work = Hub.Work()
        let a = t.connect(peer: .unknown)
        let one = text("line").utf8.count
        let n = 3000 / one  // more than the touch limit (half the capacity) holds, less than the capacity
        for _ in 0..<n { t.send(line("line"), to: .everyone, &work) }
        XCTAssertEqual(t.sharers, 0, "past the touch limit its bytes are in its queue")
        XCTAssertEqual(t.backlog(a), n * one)
        XCTAssertEqual(read(&t, a, &work), String(repeating: text("line"), count: n))
    }

    func testAClientRemovedWhileSharingLeavesTheSharedLines() {
        var t = ClientTable(queueCapacity: 64 * 1024)
        var work = Hub.Work()
        let a = t.connect(peer: .unknown), b = t.connect(peer: .unknown)
        t.send(line("all1"), to: .everyone, &work)
        _ = t.remove(a)
        XCTAssertEqual(t.sharers, 1)
        XCTAssertEqual(read(&t, b, &work), text("all1"))
        t.send(line("all2"), to: .everyone, &work)
        XCTAssertEqual(t.shared.count, text("all2").utf8.count, "nobody shared the old lines: they were let go")
    }
}
