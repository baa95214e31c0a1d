import PressureProtocol
import XCTest

@testable import PressureWebBridge

final class RequestFilterTests: XCTestCase {
    let kiosk = RequestFilter(grant: OriginGrant(origin: "http://localhost:8765", app: "org.example.kiosk"))
    let anonymous = RequestFilter(grant: OriginGrant(origin: "http://localhost:8765", app: nil))

    func forwarded(_ f: RequestFilter, _ text: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        switch f.filter(Array(text.utf8)) {
        case .forward(let l):
            XCTAssertEqual(l.last, 0x0A, file: file, line: line)
            return String(decoding: l.dropLast(), as: UTF8.self)
        case .refuse(_, let e):
            XCTFail("refused: \(e)", file: file, line: line)
            return nil
        }
    }

    func refused(_ f: RequestFilter, _ text: String, file: StaticString = #filePath, line: UInt = #line) -> ProtocolError? {
        switch f.filter(Array(text.utf8)) {
        case .forward(let l):
            XCTFail("forwarded \(String(decoding: l, as: UTF8.self))", file: file, line: line)
            return nil
        case .refuse(let l, let e):
            XCTAssertEqual(String(decoding: l.dropLast(), as: UTF8.self), ServerMessage.error(e).line, file: file, line: line)
            return e
        }
    }

    /// Every request the protocol calls control, resetLearning included, and the id echoed as written.
    func testControlRequestsAreRefusedUnlessTheOriginMayControl() {
        XCTAssertEqual(refused(kiosk, #"{"request":"set","id":7,"forceTouch":false}"#)?.code, .notPermitted)
        XCTAssertEqual(refused(kiosk, #"{"request":"reload"}"#)?.code, .notPermitted)
        let reset = refused(kiosk, #"{"request":"resetLearning","id":7.0,"device":1}"#)
        XCTAssertEqual(reset?.code, .notPermitted)
        XCTAssertEqual(reset.map { ServerMessage.error($0).line }?.contains(#""id":7.0"#), true, "the id as the page wrote it")
        XCTAssertTrue(reset?.message.contains("pages from http://localhost:8765") ?? false, reset?.message ?? "")
        let control = RequestFilter(grant: OriginGrant(origin: "http://settings.local", app: nil, mayControl: true))
        XCTAssertEqual(forwarded(control, #"{"request":"reload"}"#), #"{"request":"reload"}"#)
        XCTAssertEqual(forwarded(control, #"{"request":"resetLearning","id":1e0}"#), #"{"request":"resetLearning","id":1e0}"#)
    }

    func testSubscribeActsAsTheOriginsApp() {
        XCTAssertEqual(
            forwarded(kiosk, #"{"request":"subscribe","id":1,"events":["gestures"]}"#),
            #"{"request":"subscribe","id":1,"events":["gestures"],"app":"org.example.kiosk"}"#)
        XCTAssertEqual(
            forwarded(kiosk, #"{"request":"subscribe","app":"org.example.kiosk"}"#), #"{"request":"subscribe","app":"org.example.kiosk"}"#)
        XCTAssertEqual(refused(kiosk, #"{"request":"subscribe","id":2,"app":"org.example.mail"}"#)?.code, .notPermitted)
        XCTAssertEqual(refused(anonymous, #"{"request":"subscribe","app":"org.example.mail"}"#)?.code, .notPermitted)
        XCTAssertEqual(forwarded(anonymous, #"{"request":"subscribe"}"#), #"{"request":"subscribe"}"#)
        // A second app key is the daemon's own error, answered here.
        XCTAssertEqual(
            refused(kiosk, #"{"request":"subscribe","app":"org.example.kiosk","app":"org.example.mail"}"#)?.code, .invalidArgument)
    }

    func testRegionsAndActionsOnlyForTheOriginsApp() {
        XCTAssertNotNil(forwarded(kiosk, #"{"request":"setRegion","region":"a","x":0,"y":0,"width":9,"height":9,"app":"org.example.kiosk"}"#))
        XCTAssertNotNil(forwarded(anonymous, #"{"request":"setRegion","region":"a","x":0,"y":0,"width":9,"height":9}"#))
        XCTAssertEqual(
            refused(kiosk, #"{"request":"setRegion","region":"a","x":0,"y":0,"width":9,"height":9,"app":"org.example.mail"}"#)?.code,
            .notPermitted)
        XCTAssertNotNil(forwarded(kiosk, #"{"request":"chooseAction","app":"org.example.kiosk","action":"compose"}"#))
        XCTAssertEqual(refused(kiosk, #"{"request":"chooseAction","app":"org.example.mail","action":"compose"}"#)?.code, .notPermitted)
        XCTAssertEqual(refused(anonymous, #"{"request":"chooseAction","app":"org.example.kiosk","action":"x"}"#)?.code, .notPermitted)
        XCTAssertNotNil(forwarded(kiosk, #"{"request":"setQuickActions","items":[]}"#))
    }

    /// What the bridge cannot read is answered by the bridge, with the daemon's own error; what it forwards
    /// is one re-encoded line, unknown keys kept.
    func testUnreadableIsAnsweredAndForwardedIsOneLine() {
        XCTAssertEqual(refused(kiosk, "not json")?.code, .invalidJSON)
        XCTAssertEqual(refused(kiosk, #"{"request":"identify","app":"root"}"#)?.code, .unknownRequest)
        XCTAssertEqual(refused(kiosk, "[1]")?.code, .invalidJSON)
        XCTAssertEqual(forwarded(kiosk, "{\n\"request\" :\r\n \"ping\", \"future\": [1, {\"k\": \"v\\n\"}] }"),
                       #"{"request":"ping","future":[1,{"k":"v\u000a"}]}"#)
    }
}
