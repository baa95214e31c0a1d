import PressureProtocol
import XCTest

@testable import PressureWebBridge
@testable import PressureWebSocket

/// Walks every transition in WebSocketSession's table.
final class WebSocketSessionTests: XCTestCase {
    let second: Int64 = 1_000_000

    func session(app: String? = "org.example.kiosk", capacity: Int = 64 * 1024) -> WebSocketSession {
        WebSocketSession(
            filter: RequestFilter(grant: OriginGrant(origin: "http://localhost:8765", app: app)),
            queueCapacity: capacity, pingIntervalSeconds: 30, now: 0)
    }

    /// The messages queued for the browser so far.
    func sent(_ s: inout WebSocketSession) -> [MessageAssembler.Message] {
        drainedMessages(&s.queue, closing: s.state != .open)
    }

    func text(_ s: String) -> MessageAssembler.Message { .text(Array(s.utf8)) }

    func testOpenTextForwardsOrRefuses() {
        var s = session()
        XCTAssertEqual(
            s.handle(.message(text(#"{"request":"subscribe"}"#)), now: 1),
            [.forward(Array(#"{"request":"subscribe","app":"org.example.kiosk"}"#.utf8) + [0x0A])])
        let actions = s.handle(.message(text(#"{"request":"set","forceTouch":false}"#)), now: 2)
        XCTAssertEqual(actions.count, 1)
        guard case .log(.info, let m)? = actions.first else { return XCTFail() }
        XCTAssertTrue(m.contains("not forwarded"))
        guard case .text(let reply)? = sent(&s).first else { return XCTFail() }
        XCTAssertTrue(String(decoding: reply, as: UTF8.self).contains(#""error":"not-permitted""#))
        XCTAssertEqual(s.state, .open)
    }

    func testTooManyRefusalsClose() {
        var s = session()
        for _ in 1..<WebSocketSession.maximumRefusals { _ = s.handle(.message(text("x")), now: 1) }
        XCTAssertEqual(s.state, .open)
        XCTAssertEqual(s.handle(.message(text("x")), now: 1), [.closeDaemon])
        XCTAssertEqual(s.state, .closed(deadline: 1 + WebSocketSession.closeTimeout))
        XCTAssertEqual(sent(&s).last, .close(code: .policyViolation, reason: "too many refused requests"))
    }

    func testOpenBinaryCloses1003() {
        var s = session()
        XCTAssertEqual(s.handle(.message(.binary([1])), now: 1), [.closeDaemon])
        XCTAssertEqual(sent(&s), [.close(code: .unsupportedData, reason: "requests are JSON text messages")])
    }

    func testOpenPingPong() {
        var s = session()
        XCTAssertEqual(s.handle(.message(.ping([7, 8])), now: 1), [])
        XCTAssertEqual(sent(&s), [.pong([7, 8])])
        // Quiet for the interval: a ping; a pong clears it; no pong for as long again: closed.
        XCTAssertEqual(s.deadline, 1 + 30 * second)
        _ = s.handle(.tick, now: 31 * second)
        XCTAssertEqual(sent(&s), [.ping(Array("pressured".utf8))])
        XCTAssertEqual(s.deadline, 61 * second)
        _ = s.handle(.message(.pong([])), now: 32 * second)
        XCTAssertEqual(s.deadline, 62 * second)
        _ = s.handle(.tick, now: 62 * second)
        XCTAssertEqual(s.handle(.tick, now: 92 * second).first, .closeDaemon)
        XCTAssertEqual(s.state, .closed(deadline: 92 * second))
    }

    func testOpenCloseFromTheBrowserIsEchoed() {
        var s = session()
        XCTAssertEqual(s.handle(.message(.close(code: .goingAway, reason: "bye")), now: 1), [.closeDaemon])
        XCTAssertEqual(s.state, .closed(deadline: 1 + WebSocketSession.closeTimeout))
        XCTAssertEqual(sent(&s), [.close(code: .goingAway, reason: "")])
        var t = session()
        _ = t.handle(.message(.close(code: nil, reason: "")), now: 1)
        XCTAssertEqual(sent(&t), [.close(code: nil, reason: "")])
        XCTAssertEqual(t.closeCode, .noStatusReceived)
    }

    func testOpenProtocolErrorsCloseWithTheirCode() {
        for (error, code) in [(WebSocketProtocolError.unmaskedClientFrame, 1002), (.invalidUTF8, 1007), (.messageTooBig(limit: 9), 1009)] {
            var s = session()
            let actions = s.handle(.protocolError(error), now: 1)
            XCTAssertEqual(actions.first, .closeDaemon)
            guard case .close(let c, _)? = sent(&s).first else { return XCTFail() }
            XCTAssertEqual(c?.rawValue, UInt16(code))
            XCTAssertEqual(s.state, .closed(deadline: 1 + WebSocketSession.closeTimeout))
        }
    }

    func testOpenDaemonLinesAndTheSlowBrowser() {
        var s = session(capacity: 16 * 1024)
        let touch = Array((#"{"type":"touch","phase":"moved","time":1.000000,"device":1,"contact":3""#
            + String(repeating: " ", count: 900) + "}").utf8)[...]
        for _ in 0..<20 { XCTAssertEqual(s.handle(.daemonLine(touch), now: 1), []) }
        XCTAssertEqual(s.queue.lostTouches, 11, "past the touch limit each `moved` replaces the one queued")
        let gesture = Array((#"{"type":"peek""# + String(repeating: " ", count: 3000) + "}").utf8)[...]
        XCTAssertEqual(s.handle(.daemonLine(gesture), now: 1), [])
        XCTAssertEqual(s.handle(.daemonLine(gesture), now: 1), [])
        let actions = s.handle(.daemonLine(gesture), now: 2)
        XCTAssertEqual(actions.first, .closeDaemon)
        XCTAssertEqual(s.state, .closed(deadline: 2 + WebSocketSession.closeTimeout))
        let messages = sent(&s)
        XCTAssertEqual(messages.last, .close(code: .policyViolation, reason: "too slow"))
        guard case .text(let fatal) = messages[messages.count - 2] else { return XCTFail() }
        XCTAssertTrue(String(decoding: fatal, as: UTF8.self).contains(#""error":"too-slow""#))
        // Nothing is queued after the close.
        XCTAssertEqual(s.handle(.daemonLine(gesture), now: 3), [])
        XCTAssertEqual(sent(&s), [])
    }

    func testOpenDaemonGone() {
        var s = session()
        XCTAssertEqual(s.handle(.daemonGone(failed: false), now: 1), [])
        XCTAssertEqual(sent(&s), [.close(code: .goingAway, reason: "pressured stopped")])
        var t = session()
        _ = t.handle(.daemonGone(failed: true), now: 1)
        XCTAssertEqual(sent(&t), [.close(code: .internalError, reason: "pressured failed")])
    }

    func testOpenRequestsBacklogged() {
        var s = session()
        XCTAssertEqual(s.handle(.requestsBacklogged, now: 1).first, .closeDaemon)
        XCTAssertEqual(sent(&s), [.close(code: .policyViolation, reason: "requests faster than pressured reads")])
        XCTAssertEqual(s.handle(.requestsBacklogged, now: 2), [])
    }

    func testClosingTransitions() {
        var s = session()
        _ = s.handle(.daemonGone(failed: false), now: 0)
        // Messages, lines and the daemon are ignored while closing.
        XCTAssertEqual(s.handle(.message(text(#"{"request":"ping"}"#)), now: 1), [])
        XCTAssertEqual(s.handle(.daemonLine(Array("x".utf8)[...]), now: 1), [])
        XCTAssertEqual(s.handle(.daemonGone(failed: true), now: 1), [])
        XCTAssertEqual(s.handle(.tick, now: 2), [])
        XCTAssertEqual(s.state, .closing(deadline: WebSocketSession.closeTimeout))
        // The browser's close ends it.
        _ = s.handle(.message(.close(code: .goingAway, reason: "")), now: 3)
        XCTAssertEqual(s.state, .closed(deadline: 3 + WebSocketSession.closeTimeout))

        var t = session()
        _ = t.handle(.daemonGone(failed: false), now: 0)
        _ = t.handle(.protocolError(.invalidUTF8), now: 1)
        XCTAssertEqual(t.state, .closed(deadline: 1))

        var u = session()
        _ = u.handle(.daemonGone(failed: false), now: 0)
        _ = u.handle(.tick, now: WebSocketSession.closeTimeout)
        XCTAssertEqual(u.state, .closed(deadline: WebSocketSession.closeTimeout))

        var v = session()
        _ = v.handle(.daemonGone(failed: false), now: 0)
        XCTAssertEqual(v.handle(.browserGone, now: 1), [])
        XCTAssertEqual(v.state, .closed(deadline: 1))
    }

    func testBrowserGoneAndClosed() {
        var s = session()
        XCTAssertEqual(s.handle(.browserGone, now: 1), [.closeDaemon])
        XCTAssertEqual(s.state, .closed(deadline: 1))
        XCTAssertEqual(s.deadline, 1)
        for e: WebSocketSession.Event in [
            .message(.ping([])), .protocolError(.invalidUTF8), .daemonLine([]), .daemonGone(failed: true), .browserGone,
            .requestsBacklogged, .tick,
        ] {
            XCTAssertEqual(s.handle(e, now: 2), [])
        }
        XCTAssertEqual(sent(&s), [])
    }

    /// A touch line is read as the daemon writes it (``WireFormat``): its phase, device and contact decide
    /// what the queue may do with it; anything else must arrive.
    func testDaemonLineKindReadsTheWireFormat() {
        func line(_ phase: PressureEvent.TouchPhase, contact: UInt64) -> ArraySlice<UInt8> {
            var line: [UInt8] = []
            let e = PressureEvent(
                kind: .touch(phase), time: Timestamp(microseconds: 5), device: 12, contact: contact, x: 1, y: 1,
                force: 1, maximumPossibleForce: 2)
            WireFormat.append(e, to: &line)
            return line[...]
        }
        XCTAssertEqual(DaemonLineKind.of(line(.moved, contact: 345)), .moved(device: 12, contact: 345))
        XCTAssertEqual(DaemonLineKind.of(line(.ended, contact: 1)), .end(device: 12, contact: 1))
        XCTAssertEqual(DaemonLineKind.of(line(.cancelled, contact: 2)), .end(device: 12, contact: 2))
        XCTAssertEqual(DaemonLineKind.of(line(.began, contact: 3)), .other)
        for other in [#"{"type":"peek","device":1,"contact":2}"#, #"{"type":"touch","phase":"moved"}"#,
                      #"{"type":"touch","phase":"moved","device":x,"contact":1}"#, ""] {
            XCTAssertEqual(DaemonLineKind.of(Array(other.utf8)[...]), .other, other)
        }
    }
}
