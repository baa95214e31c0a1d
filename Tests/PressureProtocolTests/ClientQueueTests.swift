import XCTest
@testable import PressureProtocol

/// One client's queue under back-pressure: whole lines out, in order, `moved` coalesced past the touch
/// limit (the newest state kept), nothing else left out, and room for the last lines.
final class ClientQueueTests: XCTestCase {
    /// A line of `n` bytes (its `\n` included) saying `tag`.
    func line(_ tag: String, _ n: Int = 100) -> ArraySlice<UInt8> {
        let body = "{\"l\":\"\(tag)\"" + String(repeating: " ", count: max(0, n - tag.count - 9)) + "}\n"
        return Array(body.utf8)[...]
    }

    /// A reader of the queue, as a socket is: it takes at most so many bytes at a time, and a line it has
    /// only part of waits for the rest.
    struct Reader {
        var partial: [UInt8] = []

        mutating func tags(_ q: inout ClientQueue, atMost: Int = .max) -> [String] {
            q.drain { b in
                let n = min(b.count, atMost)
                partial += b.prefix(n)
                return n
            }
            guard let end = partial.lastIndex(of: 0x0a) else { return [] }
            defer { partial.removeSubrange(...end) }
            return String(decoding: partial[...end], as: UTF8.self).split(separator: "\n").map {
                String($0.split(separator: "\"")[3])
            }
        }
    }

    func tags(_ q: inout ClientQueue) -> [String] {
        var r = Reader()
        return r.tags(&q)
    }

    func testBelowTheTouchLimitEveryLineIsKept() {
        var q = ClientQueue(capacity: 4096)
        XCTAssertEqual(q.touchLimit, 2048)
        XCTAssertEqual(q.reserve, 512)
        for i in 0..<10 { XCTAssertEqual(q.append(line("m\(i)"), .moved(device: 1, contact: 1)), .queued) }
        XCTAssertEqual(tags(&q), (0..<10).map { "m\($0)" })
        XCTAssertNil(q.takeLosses())
    }

    func testPastTheTouchLimitTheNewestMovedReplacesTheQueuedOneInOrder() {
        var q = ClientQueue(capacity: 4096)
        for i in 0..<20 { _ = q.append(line("f\(i)"), .other) }  // 2000 bytes: at the limit
        XCTAssertEqual(q.append(line("a1"), .moved(device: 1, contact: 1)), .queued)
        XCTAssertEqual(q.append(line("b1"), .moved(device: 1, contact: 2)), .queued)
        XCTAssertEqual(q.append(line("g"), .other), .queued)
        XCTAssertEqual(q.append(line("a2"), .moved(device: 1, contact: 1)), .coalesced)
        XCTAssertEqual(q.append(line("a3"), .moved(device: 1, contact: 1)), .coalesced)
        XCTAssertEqual(q.append(line("c1"), .moved(device: 2, contact: 1)), .queued, "another device's contact 1")
        XCTAssertEqual(q.append(line("b-end"), .end(device: 1, contact: 2)), .queued)
        XCTAssertEqual(Array(tags(&q).dropFirst(20)), ["g", "a3", "c1", "b-end"])
        let lost = q.takeLosses()
        XCTAssertEqual(lost, DroppedTouches(touches: 3, contacts: [
            .init(device: 1, contact: 1, moved: 2), .init(device: 1, contact: 2, moved: 1),
        ]))
        XCTAssertNil(q.takeLosses(), "the count starts again")
    }

    func testALineBegunToBeWrittenIsNeverRemoved() {
        var q = ClientQueue(capacity: 4096)
        for i in 0..<20 { _ = q.append(line("f\(i)"), .other) }
        _ = q.append(line("a1"), .moved(device: 1, contact: 1))
        q.drain { _ in 2050 }  // the socket took the 20 lines and half of a1
        _ = q.append(line("x", 2000), .other)
        XCTAssertEqual(q.append(line("a2"), .moved(device: 1, contact: 1)), .queued, "a1 is half written: it stays")
        var rest: [UInt8] = []
        q.drain { b in
            rest += b
            return b.count
        }
        let text = String(decoding: rest, as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("}\n") && text.contains("\"a2\""), text)
        XCTAssertEqual(text.filter { $0 == "\n" }.count, 3, "the rest of a1, x, a2")
    }

    func testCoalescingSurvivesCompactionAndStaysWithinCapacity() {
        var q = ClientQueue(capacity: 4096)
        var reader = Reader()
        var delivered: [String] = []
        // A reader taking 150 bytes at a time while three contacts move on: their latest states and every
        // `other` line arrive, in order, and the queue never passes its capacity.
        for i in 0..<400 {
            _ = q.append(line("m\(i % 3)-\(i)"), .moved(device: 1, contact: UInt64(i % 3)))
            if i % 50 == 0 { XCTAssertEqual(q.append(line("o\(i)"), .other), .queued) }
            XCTAssertLessThanOrEqual(q.pendingCount, q.capacity - q.reserve)
            if i % 4 == 0 { delivered += reader.tags(&q, atMost: 150) }
        }
        delivered += reader.tags(&q)
        XCTAssertEqual(delivered.filter { $0.hasPrefix("o") }, (0..<8).map { "o\($0 * 50)" })
        for c in 0..<3 {
            let newest = (0..<400).last { $0 % 3 == c } ?? 0
            XCTAssertEqual(delivered.last { $0.hasPrefix("m\(c)") }, "m\(c)-\(newest)", "the newest state arrives")
        }
        let order = delivered.compactMap { $0.split(separator: "-").last.flatMap { Int($0) } }
        XCTAssertEqual(order, order.sorted(), "what is left is in the order it was queued")
        XCTAssertGreaterThan(q.takeLosses()?.touches ?? 0, 0)
    }

    func testMovedIsLeftOutBeyondTheContactsItCoalescesOrWithoutRoom() {
        var q = ClientQueue(capacity: 16384)
        for i in 0..<82 { _ = q.append(line("f\(i)"), .other) }  // past the limit
        for c in 0..<ClientQueue.maximumCoalesced {
            XCTAssertEqual(q.append(line("c\(c)"), .moved(device: 1, contact: UInt64(c))), .queued)
        }
        XCTAssertEqual(q.append(line("more"), .moved(device: 1, contact: 99)), .dropped)
        XCTAssertEqual(q.append(line("end"), .end(device: 1, contact: 99)), .queued, "its end always goes")
        while q.append(line("fill"), .other) == .queued {}
        XCTAssertEqual(q.append(line("late"), .moved(device: 1, contact: 100)), .dropped, "no room")
        XCTAssertLessThanOrEqual(q.pendingCount, q.capacity - q.reserve)
        XCTAssertEqual(q.takeLosses()?.touches, 2)
    }

    func testTheNoticeListsAtMostItsShareOfContacts() {
        var q = ClientQueue(capacity: 4096, touchLimit: 0)
        for c in 0..<(DroppedTouches.maximumListed + 5) {
            _ = q.append(line("a"), .moved(device: 1, contact: UInt64(c)))
            _ = q.append(line("b"), .moved(device: 1, contact: UInt64(c)))
            _ = tags(&q)
        }
        let lost = q.takeLosses()
        XCTAssertEqual(lost?.touches, DroppedTouches.maximumListed + 5)
        XCTAssertEqual(lost?.contacts.count, DroppedTouches.maximumListed)
        XCTAssertEqual(lost?.truncated, true)
    }

    func testALineThatMustArriveOverflowsButTheLastLinesFitBeyond() {
        var q = ClientQueue(capacity: 2048)
        var outcome = ClientQueue.Outcome.queued
        while outcome == .queued { outcome = q.append(line("g"), .other) }
        XCTAssertEqual(outcome, .overflow)
        XCTAssertLessThanOrEqual(q.pendingCount, q.capacity - q.reserve)
        for _ in 0..<10 { q.appendFinal(line("last")) }
        XCTAssertGreaterThan(q.pendingCount, q.capacity, "the last lines are never refused")
        XCTAssertEqual(tags(&q).suffix(10), Array(repeating: "last", count: 10))
    }
}
