import PressureProtocol
import XCTest

@testable import PressureWebBridge
@testable import PressureWebSocket

final class BrowserQueueTests: XCTestCase {
    func drainMessages(_ q: inout BrowserQueue, closing: Bool = false) -> [MessageAssembler.Message] {
        drainedMessages(&q, closing: closing)
    }

    func testAContactsMovedCoalescePastHalfItsEndGoesInAndTheNoticeNamesIt() {
        var q = BrowserQueue(capacity: 16 * 1024)
        let moved = Array(repeating: UInt8(ascii: "m"), count: 1000)[...]
        var outcomes: [ClientQueue.Outcome] = []
        for _ in 0..<12 { outcomes.append(q.text(moved, .moved(device: 1, contact: 7))) }
        // 8 × 1004 bytes fit in the 8 KiB half; the 9th goes in past it, and each later one replaces it.
        XCTAssertEqual(outcomes, Array(repeating: .queued, count: 9) + Array(repeating: .coalesced, count: 3))
        XCTAssertEqual(q.lostTouches, 3)
        // The contact's end always goes in, and takes the place of its queued `moved`.
        XCTAssertEqual(q.text(Array("ended".utf8)[...], .end(device: 1, contact: 7)), .queued)
        XCTAssertEqual(q.lostTouches, 4)
        // A gesture still fits beyond the touch limit.
        XCTAssertEqual(q.text(Array("gesture".utf8)[...]), .queued)
        let messages = drainMessages(&q)
        XCTAssertEqual(messages.count, 10)
        XCTAssertEqual(messages.suffix(2), [.text(Array("ended".utf8)), .text(Array("gesture".utf8))])
        // Drained below a quarter: the notice is queued, as the daemon words it, naming the contact.
        let lost = DroppedTouches(touches: 4, contacts: [DroppedTouches.Contact(device: 1, contact: 7, moved: 4)])
        XCTAssertEqual(drainMessages(&q), [.text(Array(ServerMessage.dropped(lost).line.utf8))])
        XCTAssertEqual(q.lostTouches, 0)
    }

    /// Frames stay whole whatever is coalesced while the socket takes a few bytes at a time: every message
    /// decodes, in order, and each contact's last `moved` before its end arrives.
    func testFramesStayWholeUnderCoalescingAndPartialWrites() throws {
        var q = BrowserQueue(capacity: 4096)
        var rng = SystemRandomNumberGenerator()
        var wire: [UInt8] = []
        var sentEnds: [String] = []
        for step in 0..<4000 {
            let contact = UInt64.random(in: 1...3, using: &rng)
            let payload = Array("\(step) c\(contact) ".utf8) + Array(repeating: UInt8(ascii: "x"), count: Int.random(in: 0...300, using: &rng))
            if Int.random(in: 0..<20, using: &rng) == 0 {
                let end = Array("end c\(contact) \(step)".utf8)
                if q.text(end[...], .end(device: 1, contact: contact)) == .overflow { break }
                sentEnds.append(String(decoding: end, as: UTF8.self))
            } else {
                _ = q.text(payload[...], .moved(device: 1, contact: contact))
            }
            let take = Int.random(in: 0...200, using: &rng)
            q.drain(closing: false) { b in
                let n = min(take, b.count)
                wire.append(contentsOf: b[0..<n])
                return n
            }
        }
        q.drain(closing: false) { b in
            wire.append(contentsOf: b)
            return b.count
        }
        var d = FrameDecoder(decoding: .server, maximumPayload: 1 << 20)
        d.append(wire)
        var texts: [String] = []
        while let f = try d.next() { texts.append(String(decoding: f.payload, as: UTF8.self)) }
        XCTAssertEqual(texts.filter { $0.hasPrefix("end ") }, sentEnds, "every end arrives, in order")
        XCTAssertTrue(texts.allSatisfy { $0.hasPrefix("end ") || $0.first?.isNumber == true || $0.hasPrefix(#"{"type":"dropped""#) })
    }

    func testGestureOverflowAndTheReserve() {
        var q = BrowserQueue(capacity: 16 * 1024)
        let big = Array(repeating: UInt8(ascii: "g"), count: 4092)[...]  // 4096-byte frames: four fill it exactly
        for _ in 0..<4 { XCTAssertEqual(q.text(big), .queued) }
        XCTAssertEqual(q.text(big), .overflow)
        // Pings are dropped when full; the fatal line and the close still go in.
        XCTAssertEqual(q.control(.ping, []), .dropped)
        q.final(Array("fatal".utf8))
        XCTAssertEqual(q.control(.close, FrameEncoder.closePayload(.policyViolation)), .queued)
        let messages = drainMessages(&q, closing: true)
        XCTAssertEqual(messages.suffix(2), [.text(Array("fatal".utf8)), .close(code: .policyViolation, reason: "")])
    }
}
