import XCTest

@testable import PressureCore

/// Client requests (`docs/protocol.md`, "Requests" and "Errors").
final class ProtocolTests: XCTestCase {
    func request(_ line: String, file: StaticString = #filePath, line l: UInt = #line) -> ClientRequest.Identified? {
        switch ClientRequest.parse(line: line) {
        case .success(let r): return r
        case .failure(let e):
            XCTFail("\(line): \(e)", file: file, line: l)
            return nil
        }
    }

    func failure(_ line: String, file: StaticString = #filePath, line l: UInt = #line) -> ProtocolError? {
        failure(Array(line.utf8), file: file, line: l)
    }

    func failure(_ bytes: [UInt8], file: StaticString = #filePath, line l: UInt = #line) -> ProtocolError? {
        switch ClientRequest.parse(line: bytes) {
        case .success(let r):
            XCTFail("accepted \(r)", file: file, line: l)
            return nil
        case .failure(let e): return e
        }
    }

    // MARK: Requests

    func testSubscribe() {
        let r = request(#"{"request":"subscribe","id":1,"events":["gestures","touches"]}"#)
        XCTAssertEqual(r?.id, 1)
        XCTAssertEqual(r?.request, .subscribe(Subscription(gestures: true, touches: true)))

        XCTAssertEqual(request(#"{"request":"subscribe"}"#)?.request, .subscribe(Subscription()))
        XCTAssertNil(request(#"{"request":"subscribe"}"#)?.id)
        XCTAssertEqual(Subscription().eventNames, ["gestures"])
        XCTAssertEqual(
            request(#"{"request":"subscribe","events":["devices","touches","touches"],"devices":[2,1,2]}"#)?.request,
            .subscribe(Subscription(gestures: false, touches: true, devices: true, deviceIDs: [1, 2])))
        XCTAssertEqual(
            request(#"{"request":"subscribe","events":[],"devices":[]}"#)?.request,
            .subscribe(Subscription(gestures: false, deviceIDs: [])))
        XCTAssertEqual(
            request(#"{"request":"subscribe","devices":"all","events":null}"#)?.request, .subscribe(Subscription()))
        XCTAssertEqual(request(#"{"request":"subscribe","devices":null}"#)?.request, .subscribe(Subscription()))
        XCTAssertEqual(
            request(#"{"request":"subscribe","devices":[3.0, 4e0]}"#)?.request,
            .subscribe(Subscription(deviceIDs: [3, 4])))

        let some = Subscription(deviceIDs: [2])
        XCTAssertTrue(some.includes(device: 2))
        XCTAssertFalse(some.includes(device: 1))
        XCTAssertTrue(Subscription().includes(device: 99))
    }

    func testDevicesPingSet() {
        XCTAssertEqual(request(#"{"request":"devices"}"#)?.request, .devices)
        XCTAssertEqual(request(#" {"id":"p","request":"ping"} "#)?.request, .ping)
        XCTAssertEqual(request(#"{"request":"ping"}"# + "\r")?.request, .ping)
        XCTAssertEqual(request(#"{"request":"status","id":3}"#)?.request, .status)
        XCTAssertFalse(ClientRequest.status.isControl)
        XCTAssertEqual(
            request(#"{"request":"set","forceTouch":false}"#)?.request, .set(SettingsChange(forceTouch: false)))
        XCTAssertEqual(
            request(#"{"request":"set","sensitivity":"firm"}"#)?.request, .set(SettingsChange(sensitivity: .firm)))
        XCTAssertEqual(
            request(#"{"request":"set","sensitivity":"light","forceTouch":true,"id":9}"#)?.request,
            .set(SettingsChange(forceTouch: true, sensitivity: .light)))
        XCTAssertEqual(
            request(#"{"request":"set","forceTouch":null,"sensitivity":"medium"}"#)?.request,
            .set(SettingsChange(sensitivity: .medium)))

        XCTAssertTrue(ClientRequest.set(SettingsChange(forceTouch: true)).isControl)
        XCTAssertFalse(ClientRequest.ping.isControl)
        XCTAssertEqual([ClientRequest.subscribe(Subscription()), .devices, .ping, .set(SettingsChange())].map(\.name),
                       ["subscribe", "devices", "ping", "set"])

        let applied = SettingsChange(sensitivity: .firm).applied(to: GestureSettings(forceTouchEnabled: false))
        XCTAssertEqual(applied.sensitivity, .firm)
        XCTAssertFalse(applied.forceTouchEnabled)
        XCTAssertTrue(SettingsChange(forceTouch: true).applied(to: applied).forceTouchEnabled)
    }

    func testUnknownKeysAreIgnored() {
        let r = request(#"{"future":{"x":[1,{"y":null}]},"request":"ping","id":7,"z":null,"events":"whatever"}"#)
        XCTAssertEqual(r?.id, 7)
        XCTAssertEqual(r?.request, .ping)
        XCTAssertEqual(
            request(#"{"request":"subscribe","priority":"high","events":["gestures"],"v":2}"#)?.request,
            .subscribe(Subscription()))
    }

    func testEveryKindOfIDIsEchoed() {
        let ids: [String: JSONValue] = [
            "1": 1, "-2.5": -2.5, #""abc""#: "abc", "null": .null, "true": true, "[1,\"x\"]": [1, "x"],
            #"{"k":{"n":[]}}"#: ["k": ["n": []]], #""\u00e9\n""#: "é\n",
        ]
        for (text, id) in ids {
            let r = request(#"{"request":"ping","id":"# + text + "}")
            XCTAssertEqual(r?.id, id, text)
            XCTAssertEqual(failure(#"{"request":"nope","id":"# + text + "}")?.id, id, text)
        }
    }

    /// A number id comes back as the client wrote it, digits a `Double` cannot hold included.
    func testNumericIDsAreEchoedVerbatim() {
        for text in ["12345678901234567890123", "1.0", "-0", "1E+2", "0.30000000000000004441", "9007199254740993"] {
            let r = request(#"{"request":"ping","id":"# + text + "}")
            let reply = ServerMessage.reply(id: r?.id, .ping(time: Timestamp(microseconds: 0))).line
            XCTAssertTrue(reply.hasPrefix(#"{"type":"reply","id":"# + text + ","), reply)
            let error = ServerMessage.error(failure(#"{"request":"nope","id":"# + text + "}") ?? ProtocolError.tooSlow).line
            XCTAssertTrue(error.hasPrefix(#"{"type":"error","id":"# + text + ","), error)
        }
    }

    // MARK: Errors

    func testErrorsCarryCodeAndID() {
        let cases: [(String, ProtocolError.Code, JSONValue?)] = [
            ("not json", .invalidJSON, nil),
            ("", .invalidJSON, nil),
            (#"{"request":"ping","id":1"#, .invalidJSON, nil),
            (#"[{"request":"ping","id":1}]"#, .invalidJSON, nil),
            (#""ping""#, .invalidJSON, nil),
            ("42", .invalidJSON, nil),
            ("null", .invalidJSON, nil),
            (#"{"request":"ping"} {"request":"ping"}"#, .invalidJSON, nil),
            (#"{"id":3}"#, .unknownRequest, 3),
            (#"{"id":3,"request":null}"#, .unknownRequest, 3),
            (#"{"id":3,"request":5}"#, .unknownRequest, 3),
            (#"{"id":3,"request":["ping"]}"#, .unknownRequest, 3),
            (#"{"id":"a","request":"reboot"}"#, .unknownRequest, "a"),
            (#"{"id":"a","request":"Ping"}"#, .unknownRequest, "a"),
            (#"{"request":"reboot"}"#, .unknownRequest, nil),
            (#"{"id":4,"request":"subscribe","events":["gestures","smells"]}"#, .invalidArgument, 4),
            (#"{"id":4,"request":"subscribe","events":"gestures"}"#, .invalidArgument, 4),
            (#"{"id":4,"request":"subscribe","events":[1]}"#, .invalidArgument, 4),
            (#"{"id":4,"request":"subscribe","events":[null]}"#, .invalidArgument, 4),
            (#"{"id":5,"request":"subscribe","devices":[1.5]}"#, .invalidArgument, 5),
            (#"{"id":5,"request":"subscribe","devices":[1e30]}"#, .invalidArgument, 5),
            (#"{"id":5,"request":"subscribe","devices":[0]}"#, .invalidArgument, 5),
            (#"{"id":5,"request":"subscribe","devices":[-1]}"#, .invalidArgument, 5),
            (#"{"id":5,"request":"subscribe","devices":["1"]}"#, .invalidArgument, 5),
            (#"{"id":5,"request":"subscribe","devices":[[1]]}"#, .invalidArgument, 5),
            (#"{"id":5,"request":"subscribe","devices":1}"#, .invalidArgument, 5),
            (#"{"id":5,"request":"subscribe","devices":"some"}"#, .invalidArgument, 5),
            (#"{"id":5,"request":"subscribe","devices":{}}"#, .invalidArgument, 5),
            (#"{"id":6,"request":"set"}"#, .invalidArgument, 6),
            (#"{"id":6,"request":"set","forceTouch":null,"sensitivity":null}"#, .invalidArgument, 6),
            (#"{"id":6,"request":"set","forceTouch":"yes"}"#, .invalidArgument, 6),
            (#"{"id":6,"request":"set","forceTouch":1}"#, .invalidArgument, 6),
            (#"{"id":6,"request":"set","sensitivity":"hard"}"#, .invalidArgument, 6),
            (#"{"id":6,"request":"set","sensitivity":"Firm"}"#, .invalidArgument, 6),
            (#"{"id":6,"request":"set","sensitivity":2,"forceTouch":true}"#, .invalidArgument, 6),
            (#"{"id":7,"request":"ping","request":"set"}"#, .invalidArgument, 7),
            (#"{"id":7,"id":8,"request":"ping"}"#, .invalidArgument, 7),
            (#"{"id":7,"request":"subscribe","events":[],"events":["touches"]}"#, .invalidArgument, 7),
        ]
        for (line, code, id) in cases {
            guard let error = failure(line) else { continue }
            XCTAssertEqual(error.code, code, line)
            XCTAssertEqual(error.id, id, line)
            XCTAssertFalse(error.fatal, line)
            XCTAssertFalse(error.message.isEmpty, line)
        }
    }

    /// The limits `docs/protocol.md` ("Limits") promises, each at its edge.
    func testTheDocumentedLimits() {
        let nested = { (n: Int) in #"{"request":"ping","id":"# + String(repeating: "[", count: n - 1) + String(repeating: "]", count: n - 1) + "}" }
        XCTAssertNotNil(request(nested(32)), "32 deep, the request object included")
        XCTAssertEqual(failure(nested(33))?.code, .invalidJSON)
        let app = { (n: Int) in #"{"request":"subscribe","app":""# + String(repeating: "é", count: n / 2) + #""}"# }
        XCTAssertNotNil(request(app(256)), "256 bytes of UTF-8")
        XCTAssertEqual(failure(app(258))?.message.contains("at most 256 bytes"), true)
        let items = { (n: Int) in
            #"{"request":"setQuickActions","items":["# + Array(repeating: #"{"id":"a","title":"A"}"#, count: n).joined(separator: ",") + "]}"
        }
        XCTAssertNotNil(request(items(64)))
        XCTAssertEqual(failure(items(65))?.message.contains("at most 64 quick actions"), true)
        XCTAssertEqual(failure(items(65))?.message.hasSuffix("not a list of 65"), true)
        XCTAssertEqual(failure(#"{"request":"setQuickActions","items":{}}"#)?.message.hasSuffix("not an object"), true)
        XCTAssertEqual(failure(Array(repeating: UInt8(ascii: " "), count: ClientRequest.maximumLineLength + 1))?.code, .lineTooLong)
    }

    /// The unknown-request message names every request there is, and each of those is known.
    func testTheUnknownRequestMessageListsEveryRequest() throws {
        let message = try XCTUnwrap(failure(#"{"request":"reboot"}"#)?.message)
        let listed = try XCTUnwrap(message.split(separator: ":").last).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        XCTAssertEqual(listed, ClientRequest.Name.allCases.map(\.rawValue))
        XCTAssertTrue(listed.contains("status"))
        for name in listed {
            if case .failure(let e) = ClientRequest.parse(line: #"{"request":"\#(name)"}"#) {
                XCTAssertNotEqual(e.code, .unknownRequest, name)
            }
        }
    }

    func testMessagesAreDescriptive() {
        XCTAssertEqual(failure("[1]")?.message, "a request must be a JSON object, not a list")
        XCTAssertEqual(failure("{x")?.message, "invalid JSON at byte 1: unexpected 'x', expected a string key or '}'")
        XCTAssertEqual(failure(#"{"id":1}"#)?.message, "the request has no 'request' field")
        XCTAssertEqual(
            failure(#"{"request":"reboot"}"#)?.message, #"unknown request "reboot"; known: subscribe, devices, ping, status, set, reload, resetLearning, setRegion, removeRegion, setQuickActions, chooseAction"#)
        XCTAssertEqual(
            failure(#"{"request":"subscribe","events":["smells"]}"#)?.message,
            #"unknown event kind "smells" in 'events'; known: gestures, touches, devices"#)
        XCTAssertEqual(
            failure(#"{"request":"subscribe","devices":[1.5]}"#)?.message,
            "'devices' must hold device ids (integers from 1), not 1.5")
        XCTAssertEqual(
            failure(#"{"request":"set","sensitivity":"hard"}"#)?.message,
            #"'sensitivity' must be "light", "medium" or "firm", not "hard""#)
        XCTAssertEqual(failure(#"{"request":"set"}"#)?.message, "'set' needs one or more of 'forceTouch', 'sensitivity', 'haptics'")
        XCTAssertEqual(failure(#"{"request":"ping","request":"ping"}"#)?.message, "'request' is given more than once")
        // A huge client string is not echoed whole.
        let long = String(repeating: "x", count: 10_000)
        let message = failure(#"{"request":""# + long + #""}"#)?.message ?? ""
        XCTAssertLessThan(message.count, 200)
        XCTAssertTrue(message.contains("…"))
    }

    func testBinaryGarbageAndInvalidUTF8() {
        XCTAssertEqual(failure([0x00, 0xFF, 0xFE, 0x7B])?.code, .invalidJSON)
        let bad = Array(#"{"request":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#"","id":1}"#.utf8)
        XCTAssertEqual(failure(bad)?.code, .invalidJSON)
        XCTAssertNil(failure(bad)?.id, "an id is only echoed from a line that parsed")
    }

    func testLineTooLong() {
        let padding = String(repeating: " ", count: ClientRequest.maximumLineLength)
        let error = failure(#"{"request":"ping","id":1}"# + padding)
        XCTAssertEqual(error?.code, .lineTooLong)
        XCTAssertEqual(error?.fatal, true)
        XCTAssertNil(error?.id)
        // Exactly at the limit is fine.
        let line = #"{"request":"ping"}"#
        let exact = line + String(repeating: " ", count: ClientRequest.maximumLineLength - line.utf8.count)
        XCTAssertEqual(request(exact)?.request, .ping)
    }

    func testCodes() {
        XCTAssertEqual(
            ProtocolError.Code.allCases.map(\.rawValue),
            ["invalid-json", "unknown-request", "invalid-argument", "not-permitted", "line-too-long",
             "too-many-errors", "too-slow", "reload-failed", "too-many-clients"])
        XCTAssertEqual(ProtocolError.Code.allCases.filter(\.isFatal), [.lineTooLong, .tooManyErrors, .tooSlow, .tooManyClients])
        XCTAssertEqual(ProtocolError(code: .invalidArgument, message: "m").fatal, false)
        XCTAssertEqual(ProtocolError(code: .invalidArgument, message: "m", fatal: true).fatal, true)
        let denied = ProtocolError.notPermitted(id: 12, request: "set")
        XCTAssertEqual(denied.code, .notPermitted)
        XCTAssertEqual(denied.id, 12)
        XCTAssertFalse(denied.fatal)
        XCTAssertEqual(denied.description, "not-permitted: 'set' needs root, the daemon's user or membership of the control group (ControlGroup)")
        XCTAssertTrue(ProtocolError.lineTooLong().fatal)
        XCTAssertEqual(ProtocolError.tooManyErrors().message, "100 errors in a row on this connection")
        XCTAssertTrue(ProtocolError.tooManyErrors().fatal)
        XCTAssertEqual(ProtocolError.tooSlow.code, .tooSlow)
        XCTAssertTrue(ProtocolError.tooSlow.fatal)
    }
}

extension ProtocolTests {
    func testReloadIsAControlRequestWithItsOwnReply() throws {
        let parsed = try ClientRequest.parse(line: #"{"request":"reload","id":5}"#).get()
        XCTAssertEqual(parsed.request, .reload)
        XCTAssertTrue(parsed.request.isControl)
        XCTAssertEqual(ServerMessage.reply(id: 5, .reload(PublicSettings(GestureSettings()))).line,
                       #"{"type":"reply","id":5,"request":"reload","settings":{"forceTouch":true,"sensitivity":"medium","haptics":true}}"#)
    }
}
