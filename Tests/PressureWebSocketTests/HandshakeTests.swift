import XCTest

@testable import PressureWebSocket

final class HandshakeTests: XCTestCase {
    /// RFC 6455 §1.3's request (with Host and Origin), as a browser sends it.
    let sample = """
        GET /chat HTTP/1.1\r
        Host: server.example.com\r
        Upgrade: websocket\r
        Connection: keep-alive, Upgrade\r
        Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
        Origin: http://example.com\r
        Sec-WebSocket-Protocol: chat, superchat\r
        Sec-WebSocket-Version: 13\r
        \r

        """

    func parse(_ text: String, limit: Int = 8192) throws(HTTPRequestError) -> (head: HTTPRequestHead, length: Int)? {
        let bytes = Array(text.utf8)
        let r: Result<(head: HTTPRequestHead, length: Int)?, HTTPRequestError> = bytes.withUnsafeBufferPointer { b in
            Result { () throws(HTTPRequestError) in try HTTPRequestHead.parse(b, limit: limit) }
        }
        return try r.get()
    }

    func head(_ text: String) throws -> HTTPRequestHead {
        guard let h = try parse(text) else { throw HTTPRequestError.malformedRequestLine }
        return h.head
    }

    func testRFCSampleIsAnUpgrade() throws {
        let h = try head(sample)
        XCTAssertEqual(h.method, "GET")
        XCTAssertEqual(h.path, "/chat")
        XCTAssertTrue(WebSocketHandshake.isUpgradeRequest(h))
        let u = try WebSocketHandshake.validate(h)
        XCTAssertEqual(u.protocols, ["chat", "superchat"])
        XCTAssertEqual(u.origin, "http://example.com")
        XCTAssertEqual(u.host, "server.example.com")
        let response = String(decoding: WebSocketHandshake.response(for: u, subprotocol: "chat").serialized(), as: UTF8.self)
        XCTAssertEqual(response, """
            HTTP/1.1 101 Switching Protocols\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r
            Sec-WebSocket-Protocol: chat\r
            \r

            """)
    }

    /// A head is incomplete until its blank line; what follows it is not part of it.
    func testIncompleteAndLength() throws {
        let bytes = Array(sample.utf8)
        for cut in [0, 10, bytes.count - 3, bytes.count - 1] {
            XCTAssertNil(try parse(String(decoding: bytes[..<cut], as: UTF8.self)), "cut \(cut)")
        }
        XCTAssertEqual(try parse(sample + "\u{81}")?.length, bytes.count)
        XCTAssertEqual(try parse("GET / HTTP/1.1\nHost: a\n\n")?.head.value("HOST"), "a")
    }

    func testMalformedHeads() {
        let cases: [(String, HTTPRequestError)] = [
            ("GET /\r\nHost: a\r\n\r\n", .malformedRequestLine),
            ("GET  / HTTP/1.1\r\nHost: a\r\n\r\n", .malformedRequestLine),
            ("GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n", .malformedRequestLine),
            ("GET / HTTP/2.0\r\nHost: a\r\n\r\n", .unsupportedVersion("HTTP/2.0")),
            ("GET / HTTP/1.1\r\nHost a\r\n\r\n", .malformedField("Host a")),
            ("GET / HTTP/1.1\r\nHost : a\r\n\r\n", .malformedField("Host : a")),
            ("GET / HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n", .obsoleteLineFolding),
            ("GET / HTTP/1.1\r\nX: 1\r\n\r\n", .badHost),
            ("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", .badHost),
            ("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\n", .bodyNotAccepted),
            ("GET / HTTP/1.1\r\nHost: a\r\nX: a\u{01}b\r\n\r\n", .malformedField("X: a\u{01}b")),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try parse(text), text) { XCTAssertEqual($0 as? HTTPRequestError, expected, text) }
        }
        XCTAssertEqual(HTTPRequestError.badHost.status, 400)
    }

    func testHeadTooLarge() {
        let big = "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "x", count: 200)
        XCTAssertThrowsError(try parse(big, limit: 100)) { XCTAssertEqual($0 as? HTTPRequestError, .headTooLarge(limit: 100)) }
        XCTAssertThrowsError(try parse(big + "\r\n\r\n", limit: 100))
        XCTAssertEqual(HTTPRequestError.headTooLarge(limit: 1).status, 431)
    }

    func testUpgradeFailures() throws {
        func failure(_ replacing: String, with: String) throws -> WebSocketHandshake.Failure? {
            let h = try head(sample.replacingOccurrences(of: replacing, with: with))
            do {
                _ = try WebSocketHandshake.validate(h)
                return nil
            } catch { return error }
        }
        XCTAssertEqual(try failure("GET /chat", with: "PUT /chat"), .notGET("PUT"))
        XCTAssertEqual(try failure("HTTP/1.1", with: "HTTP/1.0"), .notHTTP11)
        XCTAssertEqual(try failure("Upgrade: websocket", with: "Upgrade: h2c"), .missingUpgradeToken)
        XCTAssertEqual(try failure("keep-alive, Upgrade", with: "keep-alive"), .missingConnectionUpgrade)
        XCTAssertEqual(try failure("Version: 13", with: "Version: 8"), .unsupportedVersion("8"))
        XCTAssertEqual(try failure("dGhlIHNhbXBsZSBub25jZQ==", with: "c2hvcnQ="), .invalidKey("c2hvcnQ="))
        XCTAssertEqual(try failure("dGhlIHNhbXBsZSBub25jZQ==", with: "not base64 at all!!!"), .invalidKey("not base64 at all!!!"))
        let refusal = String(decoding: WebSocketHandshake.Failure.unsupportedVersion("8").response.serialized(), as: UTF8.self)
        XCTAssertTrue(refusal.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"))
        XCTAssertTrue(refusal.contains("Sec-WebSocket-Version: 13\r\n"))
        // Case-insensitive tokens and names.
        let mixed = try head(sample.replacingOccurrences(of: "Upgrade: websocket", with: "UPGRADE: WebSocket")
            .replacingOccurrences(of: "keep-alive, Upgrade", with: "upgrade"))
        XCTAssertNoThrow(try WebSocketHandshake.validate(mixed))
        XCTAssertFalse(WebSocketHandshake.isUpgradeRequest(try head("GET / HTTP/1.1\r\nHost: a\r\n\r\n")))
    }
}
