import PressureClient
import XCTest

@testable import PressureTools

/// `pressurectl monitor`'s readable lines, from the values the client decodes (no daemon): every kind of
/// event, padding and rounding.
final class MonitorFormatTests: XCTestCase {
    static let screen = DeviceInfo(
        id: 1, name: "Panel", node: "/dev/input/event5", kind: .touchscreen, forceCapability: .available,
        maximumPossibleForce: 6.654, widthMillimetres: 69.04, heightMillimetres: 95.24,
        xAxis: AxisRange(minimum: 0, maximum: 4095), yAxis: AxisRange(minimum: 0, maximum: 4095))
    static let learning = DeviceInfo(
        id: 2, name: "Pad", node: "replay:pad.evemu", kind: .touchpad, forceCapability: .unavailable,
        forceUnavailable: "learning", maximumPossibleForce: 0, xAxis: AxisRange(minimum: -10, maximum: 1200),
        yAxis: AxisRange(minimum: 0, maximum: 800))

    func event(_ kind: PressureEvent.Kind, progress: Double? = nil) -> PressureEvent {
        PressureEvent(kind: kind, time: Timestamp(microseconds: 4_591_874), device: 1, contact: 3, x: 2102, y: 2970,
                      force: 1.6549, maximumPossibleForce: 6.654, progress: progress)
    }

    func testHelloNamesTheDaemonItsSettingsAndEachDevice() {
        let settings = PublicSettings(forceTouch: true, sensitivity: .medium)
        XCTAssertEqual(
            MonitorFormat.hello(Hello(protocolVersion: 1, version: "9.9", devices: [Self.screen, Self.learning], settings: settings), path: "/run/p.sock"),
            [
                "pressured 9.9 (protocol 1) at /run/p.sock: force touch on, sensitivity medium, haptics on",
                "device 1  \"Panel\"  touchscreen  force available, max 6.65  69.0 × 95.2 mm  x 0…4095  y 0…4095  /dev/input/event5",
                "device 2  \"Pad\"  touchpad  force unavailable (learning)  x -10…1200  y 0…800  replay:pad.evemu",
            ])
        XCTAssertEqual(
            MonitorFormat.hello(Hello(version: "9.9", devices: [], settings: PublicSettings(forceTouch: false, sensitivity: .firm)), path: "s"),
            ["pressured 9.9 (protocol \(ServerMessage.protocolVersion)) at s: force touch off, sensitivity firm, haptics on", "no devices yet"])
    }

    func testGesturesAndTouchesLineUp() {
        XCTAssertEqual(
            MonitorFormat.line(.gesture(event(.gesture(.peek)))),
            "4.591874  device 1  contact 3  peek             at (2102, 2970)  force 1.65 / 6.65")
        XCTAssertEqual(
            MonitorFormat.line(.touch(event(.touch(.cancelled)))),
            "4.591874  device 1  contact 3  touch cancelled  at (2102, 2970)  force 1.65 / 6.65")
        XCTAssertEqual(
            MonitorFormat.line(.touch(event(.touch(.moved), progress: 0.456))),
            "4.591874  device 1  contact 3  touch moved      at (2102, 2970)  force 1.65 / 6.65  progress 0.46")
        XCTAssertEqual(
            MonitorFormat.line(.touch(event(.touch(.cancelled)), synthesized: true)),
            "4.591874  device 1  contact 3  touch cancelled  at (2102, 2970)  force 1.65 / 6.65  (not from the daemon: the connection ended)")
        let items = [QuickActionItem(id: "new", title: "New"), QuickActionItem(id: "open", title: "Open")]
        XCTAssertEqual(
            MonitorFormat.line(.gesture(event(.gesture(.quickActions)), tags: RegionTags(region: "mail", items: items))),
            "4.591874  device 1  contact 3  quickActions     at (2102, 2970)  force 1.65 / 6.65  region mail  items: New, Open")
        // Every label is padded to the longest, so the columns after it line up.
        let columns = Set(GestureKind.allCases.map { g -> Int in
            let line = MonitorFormat.line(.gesture(event(.gesture(g))))
            return line.distance(from: line.startIndex, to: line.range(of: "  at (")?.lowerBound ?? line.startIndex)
        })
        XCTAssertEqual(columns.count, 1, "\(columns)")
    }

    func testEveryOtherEvent() {
        XCTAssertEqual(
            MonitorFormat.line(.device(change: .changed, Self.learning)),
            "device 2 changed  \"Pad\"  touchpad  force unavailable (learning)  x -10…1200  y 0…800  replay:pad.evemu")
        XCTAssertEqual(MonitorFormat.line(.settings(PublicSettings(forceTouch: true, sensitivity: .light, haptics: false))),
                       "settings: force touch on, sensitivity light, haptics off")
        XCTAssertEqual(MonitorFormat.line(.dropped(DroppedTouches(touches: 1))), "dropped 1 touch event (this monitor read too slowly)")
        XCTAssertEqual(
            MonitorFormat.line(.dropped(DroppedTouches(
                touches: 12, contacts: [.init(device: 1, contact: 9, moved: 10), .init(device: 2, contact: 3, moved: 1)]))),
            "dropped 12 touch events of contacts 1:9 2:3 (this monitor read too slowly)")
        XCTAssertEqual(
            MonitorFormat.line(.dropped(DroppedTouches(touches: 40, contacts: [.init(device: 1, contact: 9, moved: 7)], truncated: true))),
            "dropped 40 touch events of contacts 1:9 … (this monitor read too slowly)")
        XCTAssertEqual(MonitorFormat.line(.bye(reason: "shutdown")), "bye: shutdown")
        XCTAssertEqual(MonitorFormat.line(.bye(reason: "")), "bye: no reason given")
        XCTAssertEqual(MonitorFormat.line(.action(app: "org.example.notes", action: "new-note")),
                       "action new-note chosen for org.example.notes")
        XCTAssertEqual(MonitorFormat.line(.disconnected(.notConnected)), "disconnected: not connected to pressured")
        XCTAssertEqual(
            MonitorFormat.line(.reconnected(Hello(version: "9.9", devices: [], settings: PublicSettings(forceTouch: true, sensitivity: .medium)))),
            "reconnected: pressured 9.9 (protocol \(ServerMessage.protocolVersion)) at : force touch on, sensitivity medium, haptics on; no devices yet")
        XCTAssertEqual(MonitorFormat.line(.unknown(type: "future", ["type": "future", "n": 1])), #"future: {"type":"future","n":1}"#)
        XCTAssertEqual(MonitorFormat.line(.unknown(type: "", ["n": 1])), #"untyped: {"n":1}"#)
    }
}
