import XCTest

@testable import PressureWebSocket

/// What a client sends: masked frames with any header bits a test wants.
func clientFrame(
    _ opcode: UInt8, fin: Bool = true, rsv: UInt8 = 0, payload: [UInt8], mask: [UInt8]? = [0x37, 0xFA, 0x21, 0x3D],
    lengthForm: Int? = nil
) -> [UInt8] {
    var out: [UInt8] = [(fin ? 0x80 : 0) | rsv << 4 | opcode]
    let maskBit: UInt8 = mask == nil ? 0 : 0x80
    let n = payload.count
    switch lengthForm ?? (n < 126 ? 7 : n <= 0xFFFF ? 16 : 64) {
    case 7: out.append(maskBit | UInt8(n))
    case 16: out += [maskBit | 126, UInt8(n >> 8), UInt8(n & 0xFF)]
    default:
        out.append(maskBit | 127)
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: UInt64(n) >> UInt64(shift))) }
    }
    if let mask {
        out += mask
        for (i, b) in payload.enumerated() { out.append(b ^ mask[i & 3]) }
    } else {
        out += payload
    }
    return out
}

final class FrameCodecTests: XCTestCase {
    func decodeAll(_ bytes: [UInt8], limit: Int = 1 << 20, peer: FrameDecoder.Peer = .client) throws(WebSocketProtocolError)
        -> [WebSocketFrame]
    {
        var d = FrameDecoder(decoding: peer, maximumPayload: limit)
        d.append(bytes)
        var frames: [WebSocketFrame] = []
        while let f = try d.next() { frames.append(f) }
        XCTAssertEqual(d.bufferedCount, 0)
        return frames
    }

    func decodeError(_ bytes: [UInt8], limit: Int = 1 << 20, peer: FrameDecoder.Peer = .client,
                     file: StaticString = #filePath, line: UInt = #line) -> WebSocketProtocolError? {
        do {
            let frames = try decodeAll(bytes, limit: limit, peer: peer)
            XCTFail("decoded \(frames)", file: file, line: line)
            return nil
        } catch { return error }
    }

    /// RFC 6455 §5.7's examples: a masked "Hello" from a client, unmasked from a server.
    func testRFCExamples() throws {
        let masked: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        XCTAssertEqual(try decodeAll(masked), [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))])
        let plain: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]
        XCTAssertEqual(try decodeAll(plain, peer: .server), [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))])
        var encoded: [UInt8] = []
        FrameEncoder.append(opcode: .text, payload: Array("Hello".utf8), to: &encoded)
        XCTAssertEqual(encoded, plain)
        encoded = []
        FrameEncoder.append(opcode: .text, payload: Array("Hello".utf8), maskKey: (0x37, 0xfa, 0x21, 0x3d), to: &encoded)
        XCTAssertEqual(encoded, masked)
        // Fragmented "Hel" + "lo" and a ping, unmasked (server to client), from §5.7.
        let fragments: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x89, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0x80, 0x02, 0x6c, 0x6f]
        XCTAssertEqual(try decodeAll(fragments, peer: .server).map(\.opcode), [.text, .ping, .continuation])
    }

    /// Lengths at each edge of the 7-, 16- and 64-bit forms round-trip through the encoder and decoder.
    func testLengthForms() throws {
        for n in [0, 1, 125, 126, 127, 65535, 65536, 70000] {
            let payload = (0..<n).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            var out: [UInt8] = []
            FrameEncoder.append(opcode: .binary, payload: payload, maskKey: (1, 2, 3, 4), to: &out)
            let headerLength = n < 126 ? 2 : n <= 0xFFFF ? 4 : 10
            XCTAssertEqual(out.count, headerLength + 4 + n, "length \(n)")
            XCTAssertEqual(try decodeAll(out), [WebSocketFrame(opcode: .binary, payload: payload)], "length \(n)")
            XCTAssertEqual(try decodeAll(clientFrame(2, payload: payload)), [WebSocketFrame(opcode: .binary, payload: payload)])
        }
    }

    /// A longer form than needed, or a 64-bit length with its top bit set, is a protocol error.
    func testNonMinimalLengthsAreRefused() {
        XCTAssertEqual(decodeError(clientFrame(1, payload: Array("hi".utf8), lengthForm: 16)), .invalidLength(2))
        XCTAssertEqual(decodeError(clientFrame(2, payload: [UInt8](repeating: 0, count: 300), lengthForm: 64)), .invalidLength(300))
        let huge: [UInt8] = [0x82, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1]
        XCTAssertEqual(decodeError(huge)?.closeCode, .protocolError)
    }

    /// Bytes arriving one at a time give the same frames as all at once.
    func testByteAtATime() throws {
        let stream = clientFrame(1, payload: Array("héllo".utf8)) + clientFrame(9, payload: [1, 2])
            + clientFrame(2, payload: [UInt8](repeating: 9, count: 300))
        let whole = try decodeAll(stream)
        var d = FrameDecoder(decoding: .client, maximumPayload: 1 << 20)
        var frames: [WebSocketFrame] = []
        for b in stream {
            d.append([b])
            while let f = try d.next() { frames.append(f) }
        }
        XCTAssertEqual(frames, whole)
        XCTAssertEqual(frames.count, 3)
    }

    func testMaskingRules() {
        XCTAssertEqual(decodeError(clientFrame(1, payload: Array("hi".utf8), mask: nil)), .unmaskedClientFrame)
        XCTAssertEqual(decodeError(clientFrame(1, payload: Array("hi".utf8)), peer: .server), .maskedServerFrame)
        XCTAssertEqual(WebSocketProtocolError.unmaskedClientFrame.closeCode, .protocolError)
    }

    func testReservedBitsAndOpcodes() {
        for rsv: UInt8 in 1...7 {
            XCTAssertEqual(decodeError(clientFrame(1, rsv: rsv, payload: [0x41])), .reservedBitsSet(rsv))
        }
        for op: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            XCTAssertEqual(decodeError(clientFrame(op, payload: [])), .unknownOpcode(op))
        }
    }

    func testControlFrameRules() {
        XCTAssertEqual(decodeError(clientFrame(9, fin: false, payload: [])), .fragmentedControlFrame(.ping))
        XCTAssertEqual(decodeError(clientFrame(8, payload: [UInt8](repeating: 0, count: 126))), .controlFrameTooLong(126))
        XCTAssertNoThrow(try decodeAll(clientFrame(10, payload: [UInt8](repeating: 0, count: 125))))
    }

    /// The cap is enforced from the header, before the payload arrives.
    func testSizeCapFromTheHeader() {
        var d = FrameDecoder(decoding: .client, maximumPayload: 1000)
        let frame = clientFrame(2, payload: [UInt8](repeating: 0, count: 1001))
        d.append(Array(frame.prefix(8)))
        XCTAssertThrowsError(try d.next()) { XCTAssertEqual($0 as? WebSocketProtocolError, .messageTooBig(limit: 1000)) }
        XCTAssertEqual(WebSocketProtocolError.messageTooBig(limit: 1000).closeCode, .messageTooBig)
        // Spent: it keeps failing.
        XCTAssertThrowsError(try d.next())
        XCTAssertNoThrow(try decodeAll(clientFrame(2, payload: [UInt8](repeating: 0, count: 1000)), limit: 1000))
    }

    func testCloseCodesOfEveryError() {
        let expected: [(WebSocketProtocolError, UInt16)] = [
            (.reservedBitsSet(4), 1002), (.unknownOpcode(3), 1002), (.unmaskedClientFrame, 1002), (.maskedServerFrame, 1002),
            (.fragmentedControlFrame(.close), 1002), (.controlFrameTooLong(200), 1002), (.invalidLength(3), 1002),
            (.unexpectedContinuation, 1002), (.expectedContinuation, 1002), (.invalidUTF8, 1007),
            (.messageTooBig(limit: 1), 1009), (.closePayloadTooShort, 1002), (.invalidCloseCode(1005), 1002),
        ]
        for (error, code) in expected {
            XCTAssertEqual(error.closeCode.rawValue, code, "\(error)")
            XCTAssertLessThanOrEqual(error.description.utf8.count, 123)
        }
    }

    func testClosePayload() {
        XCTAssertEqual(FrameEncoder.closePayload(.normalClosure, reason: "bye"), [0x03, 0xE8, 0x62, 0x79, 0x65])
        let long = FrameEncoder.closePayload(.goingAway, reason: String(repeating: "é", count: 100))
        XCTAssertEqual(long.count, 2 + 122)  // 61 two-byte characters fit in 123 bytes; none is split
        XCTAssertTrue(UTF8Validator.isValid(Array(long[2...])))
    }
}
