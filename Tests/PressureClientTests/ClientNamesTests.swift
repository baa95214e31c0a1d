import PressureClient
import TestSupport
import XCTest

/// The Swift client against `docs/protocol.md`'s table of names: every gesture, touch phase, message
/// `type` and device change the table names comes out as the event it is, not as ``ClientEvent/unknown``.
/// A name the table adds fails here until the client handles it. The other vocabularies are the
/// protocol's types the client shares with the daemon (`ProtocolNamesTests` holds them to the table).
final class ClientNamesTests: XCTestCase {
    func event(_ line: String) throws -> ClientEvent { ClientEvent(try JSONParser.parse(line)) }

    func point(_ type: String, _ extra: String = "") -> String {
        #"{"type":""# + type + #"","time":1.000000,"device":1,"contact":2,"x":3,"y":4,"force":1.5,"maximumPossibleForce":2.0"#
            + extra + "}"
    }

    /// A line of each message type that is neither a gesture nor a touch, as the client receives it after
    /// `hello`, and whether it becomes an event (the connection answers requests with `reply` and `error`
    /// itself, and reads `hello` before any event).
    static let messages: [String: (line: String, isEvent: Bool)] = [
        "hello": (#"{"type":"hello","protocol":1,"version":"0.1.0","devices":[],"settings":{"forceTouch":true,"sensitivity":"medium"}}"#, false),
        "reply": (#"{"type":"reply","id":1,"request":"ping","time":1.000000}"#, false),
        "error": (#"{"type":"error","id":1,"error":"invalid-argument","message":"m"}"#, false),
        "device": (#"{"type":"device","change":"removed","device":{"id":1,"name":"n","node":"/dev/input/event5","kind":"touchpad","forceCapability":"unavailable","maximumPossibleForce":0.0,"x":{"min":0,"max":9},"y":{"min":0,"max":9}}}"#, true),
        "settings": (#"{"type":"settings","settings":{"forceTouch":false,"sensitivity":"light"}}"#, true),
        "dropped": (#"{"type":"dropped","touches":3}"#, true),
        "bye": (#"{"type":"bye","reason":"shutdown"}"#, true),
        "action": (#"{"type":"action","app":"a","action":"b"}"#, true),
    ]

    func testEveryNameOfTheTableIsHandled() throws {
        let table = try ProtocolNames.load()
        for name in table["gesture"] {
            guard case .gesture(let e, _, _) = try event(point(name)), e.gesture?.rawValue == name else {
                XCTFail("docs/protocol.md names the gesture `\(name)`: the client makes it \(try event(point(name)))")
                continue
            }
        }
        for name in table["phase"] {
            guard case .touch(let e, _) = try event(point("touch", #","phase":""# + name + #"""#)), e.phase?.rawValue == name else {
                XCTFail("docs/protocol.md names the touch phase `\(name)`, which the client does not read")
                continue
            }
        }
        for name in table["message"] where name != "touch" {
            guard let sample = Self.messages[name] else {
                XCTFail("docs/protocol.md names the message `\(name)`: handle it in the client and add a line of it here")
                continue
            }
            let value = try JSONParser.parse(sample.line)
            if sample.isEvent {
                if case .unknown = ClientEvent(value) { XCTFail("the client does not read `\(name)`: \(sample.line)") }
            } else {
                XCTAssertNoThrow(try ServerMessage(json: value), "the connection reads `\(name)` as the daemon's message")
            }
        }
        let device = try XCTUnwrap(Self.messages["device"]).line
        for name in table["change"] {
            let line = device.replacingOccurrences(of: #""change":"removed""#, with: #""change":""# + name + #"""#)
            guard case .device(let change, _) = try event(line), change.rawValue == name else {
                XCTFail("docs/protocol.md names the device change `\(name)`, which the client does not read")
                continue
            }
        }
    }

    /// A `type` the client does not know is kept whole as unknown: never a gesture, never a touch, even
    /// with a touch's fields.
    func testAnUnknownTypeIsNeitherAGestureNorATouch() throws {
        let line = point("squeeze", #","phase":"began""#)
        XCTAssertEqual(try event(line), .unknown(type: "squeeze", try JSONParser.parse(line)))
    }
}
