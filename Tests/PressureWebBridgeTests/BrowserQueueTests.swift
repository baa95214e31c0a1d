import PressureProtocol
import XCTest

@testable import PressureWebBridge
@testable import PressureWebSocket

final class BrowserQueueTests: XCTestCase {
    func drainMessages(_ q: inout BrowserQueue, closing: Bool = false) -> [MessageAssembler.Message] {
        drainedMessages(&q, closing: closing)
    }

    func testTouchesDropPastHalfAndTheNoticeFollows() {
        var q = BrowserQueue(capacity: 16 * 1024)
        let touch = Array(repeating: UInt8(ascii: "t"), count: 1000)[...]
        var outcomes: [ClientQueue.Outcome] = []
        for _ in 0..<12 { outcomes.append(q.text(touch, droppable: true)) }
        XCTAssertEqual(outcomes.filter { $0 == .queued }.count, 8)  // 8 × 1004 bytes fit in the 8 KiB half
        XCTAssertEqual(q.droppedTouches, 4)
        // A gesture still fits beyond the touch limit.
        XCTAssertEqual(q.text(Array("gesture".utf8)[...], droppable: false), .queued)
        let messages = drainMessages(&q)
        XCTAssertEqual(messages.count, 9)
        XCTAssertEqual(messages.last, .text(Array("gesture".utf8)))
        // Drained below a quarter: the notice is queued, as the daemon words it.
        XCTAssertEqual(drainMessages(&q), [.text(Array(ServerMessage.dropped(touches: 4).line.utf8))])
        XCTAssertEqual(q.droppedTouches, 0)
    }

    func testGestureOverflowAndTheReserve() {
        var q = BrowserQueue(capacity: 16 * 1024)
        let big = Array(repeating: UInt8(ascii: "g"), count: 4092)[...]  // 4096-byte frames: four fill it exactly
        for _ in 0..<4 { XCTAssertEqual(q.text(big, droppable: false), .queued) }
        XCTAssertEqual(q.text(big, droppable: false), .overflow)
        // Pings are dropped when full; the fatal line and the close still go in.
        XCTAssertEqual(q.control(.ping, []), .dropped)
        q.final(Array("fatal".utf8))
        XCTAssertEqual(q.control(.close, FrameEncoder.closePayload(.policyViolation)), .queued)
        let messages = drainMessages(&q, closing: true)
        XCTAssertEqual(messages.suffix(2), [.text(Array("fatal".utf8)), .close(code: .policyViolation, reason: "")])
    }
}
