import XCTest

@testable import PressureWebSocket

final class MessageAssemblerTests: XCTestCase {
    func frame(_ op: WebSocketOpcode, _ payload: [UInt8], fin: Bool = true) -> WebSocketFrame {
        WebSocketFrame(fin: fin, opcode: op, payload: payload)
    }

    func feed(_ frames: [WebSocketFrame], limit: Int = 1 << 20) throws(WebSocketProtocolError) -> [MessageAssembler.Message] {
        var a = MessageAssembler(maximumMessage: limit)
        var out: [MessageAssembler.Message] = []
        for f in frames { if let m = try a.receive(f) { out.append(m) } }
        return out
    }

    func error(_ frames: [WebSocketFrame], limit: Int = 1 << 20, file: StaticString = #filePath, line: UInt = #line)
        -> WebSocketProtocolError?
    {
        do {
            let m = try feed(frames, limit: limit)
            XCTFail("assembled \(m)", file: file, line: line)
            return nil
        } catch { return error }
    }

    /// Every transition of the table in MessageAssembler's doc comment.
    func testTransitions() throws {
        // idle, text FIN → idle with the message; binary too.
        XCTAssertEqual(try feed([frame(.text, [0x61])]), [.text([0x61])])
        XCTAssertEqual(try feed([frame(.binary, [0xFF])]), [.binary([0xFF])])
        // idle, no FIN → open; continuation no FIN → open; continuation FIN → idle with the message.
        XCTAssertEqual(
            try feed([frame(.text, [0x61], fin: false), frame(.continuation, [0x62], fin: false), frame(.continuation, [0x63])]),
            [.text([0x61, 0x62, 0x63])])
        // idle, continuation → error.
        XCTAssertEqual(error([frame(.continuation, [0x61])]), .unexpectedContinuation)
        // open, text/binary → error.
        XCTAssertEqual(error([frame(.text, [0x61], fin: false), frame(.text, [0x62])]), .expectedContinuation)
        XCTAssertEqual(error([frame(.binary, [0x61], fin: false), frame(.binary, [0x62])]), .expectedContinuation)
        // any, control → the control message, state unchanged (in idle and in open).
        XCTAssertEqual(try feed([frame(.ping, [1])]), [.ping([1])])
        XCTAssertEqual(
            try feed([frame(.text, [0x61], fin: false), frame(.ping, [1]), frame(.pong, [2]), frame(.continuation, [0x62])]),
            [.ping([1]), .pong([2]), .text([0x61, 0x62])])
        XCTAssertEqual(
            try feed([frame(.binary, [1], fin: false), frame(.close, [0x03, 0xE8])]), [.close(code: .normalClosure, reason: "")])
    }

    /// A character split across fragments (with a ping between) is fine; a bad byte fails at its fragment, a
    /// message ending mid-character fails at its last fragment.
    func testUTF8AcrossFragments() throws {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        XCTAssertEqual(
            try feed([frame(.text, [euro[0]], fin: false), frame(.ping, []), frame(.continuation, [euro[1]], fin: false),
                      frame(.continuation, [euro[2]])]),
            [.ping([]), .text(euro)])
        var a = MessageAssembler(maximumMessage: 100)
        XCTAssertNil(try a.receive(frame(.text, [0x61], fin: false)))
        XCTAssertThrowsError(try a.receive(frame(.continuation, [0xC0, 0x80], fin: false))) {
            XCTAssertEqual($0 as? WebSocketProtocolError, .invalidUTF8)
        }
        XCTAssertEqual(error([frame(.text, [0xE2, 0x82], fin: false), frame(.continuation, [])]), .invalidUTF8)
        XCTAssertEqual(WebSocketProtocolError.invalidUTF8.closeCode, .invalidPayload)
        // Binary is not checked.
        XCTAssertEqual(try feed([frame(.binary, [0xC0, 0x80])]), [.binary([0xC0, 0x80])])
    }

    func testMessageSizeCapAcrossFragments() {
        XCTAssertEqual(
            error([frame(.text, [UInt8](repeating: 0x61, count: 6), fin: false), frame(.continuation, [0x61, 0x61, 0x61])], limit: 8),
            .messageTooBig(limit: 8))
        XCTAssertNoThrow(try feed([frame(.text, [0x61, 0x61], fin: false), frame(.continuation, [0x61])], limit: 3))
    }

    func testClosePayloads() throws {
        XCTAssertEqual(try feed([frame(.close, [])]), [.close(code: nil, reason: "")])
        XCTAssertEqual(try feed([frame(.close, [0x0F, 0xA0] + Array("ok".utf8))]), [.close(code: WebSocketCloseCode(rawValue: 4000), reason: "ok")])
        XCTAssertEqual(error([frame(.close, [0x03])]), .closePayloadTooShort)
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
            XCTAssertEqual(error([frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])]), .invalidCloseCode(code))
        }
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 4999] {
            XCTAssertNoThrow(try feed([frame(.close, [UInt8(code >> 8), UInt8(code & 0xFF)])]), "\(code)")
        }
        XCTAssertEqual(error([frame(.close, [0x03, 0xE8, 0xC0, 0x80])]), .invalidUTF8)
    }
}
