import PressureClient
import XCTest

/// Decoding daemon lines: every kind, and forward compatibility (unknown keys and types).
final class ClientEventTests: XCTestCase {
    func event(_ line: String) throws -> ClientEvent { ClientEvent(try JSONParser.parse(line)) }

    func testGestureWithUnknownKeysDecodes() throws {
        let e = try event(
            #"{"type":"peek","time":4.591874,"device":1,"contact":3,"x":2102,"y":2970,"force":1.6494,"maximumPossibleForce":6.6494,"future":[1]}"#)
        XCTAssertEqual(
            e,
            .gesture(
                PressureEvent(
                    kind: .gesture(.peek), time: Timestamp(microseconds: 4_591_874), device: 1, contact: 3, x: 2102, y: 2970,
                    force: 1.6494, maximumPossibleForce: 6.6494)))
    }

    func testTouchProgressIsOptional() throws {
        let line = #"{"type":"touch","phase":"moved","time":0.000001,"device":1,"contact":1,"x":0,"y":0,"force":0.0,"maximumPossibleForce":0.0}"#
        guard case .touch(let t, _) = try event(line) else { return XCTFail() }
        XCTAssertEqual(t.phase, .moved)
        XCTAssertEqual(t.time.microseconds, 1)
        XCTAssertNil(t.progress)
    }

    func testSessionEvents() throws {
        XCTAssertEqual(try event(#"{"type":"dropped","touches":12}"#), .dropped(DroppedTouches(touches: 12)))
        XCTAssertEqual(
            try event(#"{"type":"dropped","touches":12,"contacts":[{"device":2,"contact":7,"moved":12}]}"#),
            .dropped(DroppedTouches(touches: 12, contacts: [.init(device: 2, contact: 7, moved: 12)])))
        XCTAssertEqual(try event(#"{"type":"bye","reason":"shutdown"}"#), .bye(reason: "shutdown"))
        XCTAssertEqual(
            try event(#"{"type":"settings","settings":{"forceTouch":false,"sensitivity":"light"}}"#),
            .settings(PublicSettings(forceTouch: false, sensitivity: .light, haptics: false)), "a daemon from before haptics plays none")
        let device = #"{"id":2,"name":"n","node":"/dev/input/event5","kind":"touchpad","forceCapability":"unavailable","maximumPossibleForce":0.0,"x":{"min":-5,"max":5},"y":{"min":0,"max":9}}"#
        XCTAssertEqual(
            try event(#"{"type":"device","change":"added","device":"# + device + "}"),
            .device(
                change: .added,
                DeviceInfo(
                    id: 2, name: "n", node: "/dev/input/event5", kind: .touchpad, forceCapability: .unavailable,
                    maximumPossibleForce: 0, xAxis: AxisRange(minimum: -5, maximum: 5), yAxis: AxisRange(minimum: 0, maximum: 9))))
    }

    /// New types, and lines whose fields this library cannot read, are kept whole rather than failing.
    func testUnknownAndMalformedLinesAreKept() throws {
        let future = try JSONParser.parse(#"{"type":"squeeze","time":1.0,"strength":3}"#)
        XCTAssertEqual(ClientEvent(future), .unknown(type: "squeeze", future))
        let broken = try JSONParser.parse(#"{"type":"pop","time":"soon"}"#)
        XCTAssertEqual(ClientEvent(broken), .unknown(type: "pop", broken))
        let untyped = try JSONParser.parse(#"[1,2]"#)
        XCTAssertEqual(ClientEvent(untyped), .unknown(type: "", untyped))
        let hugeTime = try JSONParser.parse(#"{"type":"peek","time":1e300,"device":1,"contact":1,"x":0,"y":0,"force":1,"maximumPossibleForce":2}"#)
        XCTAssertEqual(ClientEvent(hugeTime), .unknown(type: "peek", hugeTime), "no trap on an absurd time")
    }
}
