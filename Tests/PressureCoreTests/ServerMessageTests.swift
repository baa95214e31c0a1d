import DeviceTestSupport
import Foundation
import TestSupport
import XCTest

@testable import PressureCore

/// Daemon-to-client lines other than gesture and touch events: exact bytes, key order, and Foundation's
/// verdict that each is one valid JSON object followed by `\n`.
final class ServerMessageTests: XCTestCase {
    static func sampleDevice() throws -> DeviceInfo {
        let device = try TouchDevice(TestDevices.slotted)
        let pipeline = TouchPipeline(device: device, deviceID: 1, calibration: nil, settings: GestureSettings())
        var info = DeviceInfo(id: 1, node: "/dev/input/event5", pipeline: pipeline)
        info.name = "Test \"MT\" Touchscreen"
        info.forceCapability = .available
        info.forceUnavailable = nil
        info.maximumPossibleForce = 6.666666
        info.widthMillimetres = 255.9375
        info.heightMillimetres = 143.99999
        info.xAxis = AxisRange(minimum: 0, maximum: 4095)
        info.yAxis = AxisRange(minimum: -10, maximum: 2303)
        info.screen = ScreenGeometry(width: 1920, height: 1080, rotation: .quarter, matrix: [1, 0, 0, 0, 1, 0.5])
        return info
    }

    static func sampleDeviceWithoutSize() throws -> DeviceInfo {
        var info = try sampleDevice()
        info.id = 2
        info.name = "Resistive"
        info.node = "replay:captures/a b.evemu"
        info.forceCapability = .unavailable
        info.forceUnavailable = "learning"
        info.maximumPossibleForce = 0
        info.widthMillimetres = nil
        info.heightMillimetres = nil
        return info
    }

    static let deviceJSON =
        #"{"id":1,"name":"Test \"MT\" Touchscreen","node":"/dev/input/event5","kind":"touchscreen","#
        + #""forceCapability":"available","maximumPossibleForce":6.6667,"width":255.9375,"height":144.0,"#
        + #""x":{"min":0,"max":4095},"y":{"min":-10,"max":2303},"# + screenJSON + "}"
    static let screenJSON = #""screen":{"width":1920.0,"height":1080.0,"rotation":90,"matrix":[1.0,0.0,0.0,0.0,1.0,0.5]}"#
    static let bareDeviceJSON =
        #"{"id":2,"name":"Resistive","node":"replay:captures/a b.evemu","kind":"touchscreen","#
        + #""forceCapability":"unavailable","forceUnavailable":"learning","maximumPossibleForce":0.0,"#
        + #""x":{"min":0,"max":4095},"#
        + #""y":{"min":-10,"max":2303},"# + screenJSON + "}"
    static let settings = PublicSettings(GestureSettings(forceTouchEnabled: true, sensitivity: .medium))
    static let settingsJSON = #"{"forceTouch":true,"sensitivity":"medium","haptics":true}"#

    /// Checks the exact line, that it is one `\n`-terminated line, that Foundation parses it into an
    /// object, and that its keys come in the order given.
    func check(_ message: ServerMessage, _ expected: String, keys: [String],
               file: StaticString = #filePath, line: UInt = #line) throws {
        var out: [UInt8] = []
        message.append(to: &out)
        XCTAssertEqual(String(decoding: out, as: UTF8.self), expected + "\n", file: file, line: line)
        XCTAssertEqual(out.filter { $0 == 0x0A }.count, 1, "one line", file: file, line: line)
        XCTAssertEqual(message.line, expected, file: file, line: line)
        let object = try XCTUnwrap(try foundationJSON(Array(out.dropLast())) as? [String: Any], file: file, line: line)
        XCTAssertEqual(Set(object.keys), Set(keys), file: file, line: line)
        let ours = try JSONParser.parse(out)
        XCTAssertEqual(ours.objectMembers?.map(\.0), keys, file: file, line: line)
    }

    func testHello() throws {
        let devices = [try Self.sampleDevice(), try Self.sampleDeviceWithoutSize()]
        let expected = #"{"type":"hello","protocol":1,"version":"0.1.0","devices":["# + Self.deviceJSON + ","
            + Self.bareDeviceJSON + #"],"settings":"# + Self.settingsJSON + "}"
        try check(.hello(devices: devices, settings: Self.settings), expected,
                  keys: ["type", "protocol", "version", "devices", "settings"])
        XCTAssertEqual(ServerMessage.protocolVersion, 1)
        XCTAssertEqual(pressuredVersion, "0.1.0")

        let hello = try XCTUnwrap(try foundationJSON(Array(expected.utf8)) as? [String: Any])
        let first = try XCTUnwrap((hello["devices"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["name"] as? String, "Test \"MT\" Touchscreen")
        XCTAssertEqual((first["maximumPossibleForce"] as? NSNumber)?.doubleValue, 6.6667)
        XCTAssertEqual((first["y"] as? [String: Any])?["min"] as? Int, -10)

        try check(.hello(protocolVersion: 2, version: "9.9", devices: [], settings: Self.settings),
                  #"{"type":"hello","protocol":2,"version":"9.9","devices":[],"settings":"# + Self.settingsJSON + "}",
                  keys: ["type", "protocol", "version", "devices", "settings"])
    }

    func testReplies() throws {
        let replyKeys = ["type", "id", "request"]
        try check(.reply(id: 1, .subscribe(Subscription(gestures: true, touches: true))),
                  #"{"type":"reply","id":1,"request":"subscribe","events":["gestures","touches"],"devices":"all"}"#,
                  keys: replyKeys + ["events", "devices"])
        try check(.reply(id: nil, .subscribe(Subscription(gestures: false, devices: true, deviceIDs: [3, 1, 2]))),
                  #"{"type":"reply","request":"subscribe","events":["devices"],"devices":[1,2,3]}"#,
                  keys: ["type", "request", "events", "devices"])
        try check(.reply(id: ["a": [1, "x"]], .subscribe(Subscription(gestures: false, deviceIDs: []))),
                  #"{"type":"reply","id":{"a":[1,"x"]},"request":"subscribe","events":[],"devices":[]}"#,
                  keys: replyKeys + ["events", "devices"])
        try check(.reply(id: "d", .devices([try Self.sampleDeviceWithoutSize()])),
                  #"{"type":"reply","id":"d","request":"devices","devices":["# + Self.bareDeviceJSON + "]}",
                  keys: replyKeys + ["devices"])
        try check(.reply(id: nil, .devices([])), #"{"type":"reply","request":"devices","devices":[]}"#,
                  keys: ["type", "request", "devices"])
        try check(.reply(id: 2.5, .ping(time: Timestamp(microseconds: 12_000_175))),
                  #"{"type":"reply","id":2.5,"request":"ping","time":12.000175}"#, keys: replyKeys + ["time"])
        try check(.reply(id: nil, .ping(time: Timestamp(microseconds: 3))),
                  #"{"type":"reply","request":"ping","time":0.000003}"#, keys: ["type", "request", "time"])
        let status = DaemonStatus(devices: 2, clients: 3, subscribers: 1, contacts: 4, regionContacts: 1, regions: 5,
                                  quickActionApps: 6, pendingChoices: 7, queuedBytes: 80_000)
        try check(.reply(id: "s", .status(status, force: [])),
                  #"{"type":"reply","id":"s","request":"status","status":{"devices":2,"clients":3,"subscribers":1,"#
                      + #""contacts":4,"regionContacts":1,"regions":5,"quickActionApps":6,"pendingChoices":7,"#
                      + #""queuedBytes":80000},"force":[],"latency":[]}"#,
                  keys: replyKeys + ["status", "force", "latency"])
        // What the loop did since it started, apart from what it holds (those counts only grow).
        try check(.reply(id: 3, .status(status, force: [], activity: DaemonActivity(wakeups: 812, accepted: 61, refused: 28, acceptErrors: 29))),
                  #"{"type":"reply","id":3,"request":"status","status":{"devices":2,"clients":3,"subscribers":1,"#
                      + #""contacts":4,"regionContacts":1,"regions":5,"quickActionApps":6,"pendingChoices":7,"#
                      + #""queuedBytes":80000},"force":[],"latency":[],"activity":{"wakeups":812,"accepted":61,"#
                      + #""refused":28,"acceptErrors":29}}"#,
                  keys: replyKeys + ["status", "force", "latency", "activity"])
        // Each device's force beside the counts: a device learning, one with a configured average.
        let learning = try TouchPipeline(
            device: TouchDevice(TestDevices.slotted), deviceID: 1,
            force: .learning(ForceCalibration.uncalibrated(axis: AbsInfo(minimum: 0, maximum: 1000)), nil),
            settings: GestureSettings())
        let configured = try TouchPipeline(
            device: TouchDevice(TestDevices.slotted), deviceID: 2,
            calibration: ForceCalibration(floor: 0, average: 270, top: 1000), settings: GestureSettings())
        try check(.reply(id: nil, .status(DaemonStatus(), force: [
            DeviceForceStatus(device: 1, pipeline: learning), DeviceForceStatus(device: 2, pipeline: configured),
        ])),
                  #"{"type":"reply","request":"status","status":{"devices":0,"clients":0,"subscribers":0,"contacts":0,"#
                      + #""regionContacts":0,"regions":0,"quickActionApps":0,"pendingChoices":0,"queuedBytes":0},"#
                      + #""force":[{"device":1,"forceCapability":"unavailable","forceUnavailable":"learning","#
                      + #""why":"learning the average touch (0 of 8 ordinary touches)","averageSource":"learned","#
                      + #""floor":0,"top":1000,"samples":0,"accepted":0,"maximumPossibleForce":0.0},"#
                      + #"{"device":2,"forceCapability":"available","averageSource":"configured","floor":0,"#
                      + #""average":270.0,"top":1000,"peekRaw":378,"popRaw":540,"peekForce":1.4,"popForce":2.0,"#
                      + #""maximumPossibleForce":3.7037}],"latency":[]}"#,
                  keys: ["type", "request", "status", "force", "latency"])
        let firmOff = PublicSettings(GestureSettings(forceTouchEnabled: false, sensitivity: .firm))
        try check(.reply(id: nil, .set(firmOff)),
                  #"{"type":"reply","id":null,"request":"set","settings":{"forceTouch":false,"sensitivity":"firm","haptics":true}}"#
                      .replacingOccurrences(of: #""id":null,"#, with: ""),
                  keys: ["type", "request", "settings"])
        try check(.reply(id: .null, .set(firmOff)),
                  #"{"type":"reply","id":null,"request":"set","settings":{"forceTouch":false,"sensitivity":"firm","haptics":true}}"#,
                  keys: replyKeys + ["settings"])
    }

    func testErrors() throws {
        try check(.error(ProtocolError(id: 4, code: .invalidArgument, message: #"unknown event kind "x""#)),
                  #"{"type":"error","id":4,"error":"invalid-argument","message":"unknown event kind \"x\""}"#,
                  keys: ["type", "id", "error", "message"])
        try check(.error(ProtocolError(code: .invalidJSON, message: "bad\nline\u{1}")),
                  #"{"type":"error","error":"invalid-json","message":"bad\u000aline\u0001"}"#,
                  keys: ["type", "error", "message"])
        try check(.error(.lineTooLong()),
                  #"{"type":"error","error":"line-too-long","message":"request line longer than 65536 bytes","fatal":true}"#,
                  keys: ["type", "error", "message", "fatal"])
        // Every code, with and without an id: valid JSON, `fatal` exactly when the code is fatal.
        for code in ProtocolError.Code.allCases {
            for id in [nil, JSONValue.string("r-1")] as [JSONValue?] {
                let message = ServerMessage.error(ProtocolError(id: id, code: code, message: "m"))
                var out: [UInt8] = []
                message.append(to: &out)
                let object = try XCTUnwrap(try foundationJSON(out) as? [String: Any])
                XCTAssertEqual(object["error"] as? String, code.rawValue)
                XCTAssertEqual(object["id"] as? String, id?.stringValue)
                XCTAssertEqual(object["fatal"] as? Bool, code.isFatal ? true : nil)
            }
        }
    }

    func testEvents() throws {
        let device = try Self.sampleDevice()
        for change in [ServerMessage.DeviceChange.added, .removed, .changed] {
            try check(.device(change: change, device),
                      #"{"type":"device","change":""# + change.rawValue + #"","device":"# + Self.deviceJSON + "}",
                      keys: ["type", "change", "device"])
        }
        try check(.settings(Self.settings), #"{"type":"settings","settings":"# + Self.settingsJSON + "}",
                  keys: ["type", "settings"])
        try check(.dropped(DroppedTouches(touches: 1234)), #"{"type":"dropped","touches":1234,"contacts":[]}"#,
                  keys: ["type", "touches", "contacts"])
        try check(.dropped(DroppedTouches(touches: 13, contacts: [.init(device: 1, contact: 9, moved: 13)], truncated: true)),
                  #"{"type":"dropped","touches":13,"contacts":[{"device":1,"contact":9,"moved":13}],"truncated":true}"#,
                  keys: ["type", "touches", "contacts", "truncated"])
        try check(.bye(reason: "shutdown"), #"{"type":"bye","reason":"shutdown"}"#, keys: ["type", "reason"])
    }

    /// Names with quotes, control characters and emoji survive into valid JSON.
    func testHostileDeviceNames() throws {
        var device = try Self.sampleDevice()
        for name in ["\"}\n{\"type\":\"pop\"", "tab\tbell\u{7}", "😀 Touch", "back\\slash", "\u{0}"] {
            device.name = name
            var out: [UInt8] = []
            ServerMessage.device(change: .changed, device).append(to: &out)
            XCTAssertEqual(out.filter { $0 == 0x0A }.count, 1)
            let object = try XCTUnwrap(try foundationJSON(out) as? [String: Any])
            XCTAssertEqual((object["device"] as? [String: Any])?["name"] as? String, name)
        }
    }
}
