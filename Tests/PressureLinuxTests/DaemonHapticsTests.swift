import Foundation
import Glibc
import TestSupport
import XCTest

/// The daemon with haptic devices that cannot be used: they are logged and dropped, and every client gets
/// exactly the gestures it gets without them.
final class DaemonHapticsTests: XCTestCase {
    func testHapticNodesThatFailNeverDisturbGestureDelivery() throws {
        let fixture = "Tests/Fixtures/peek-pop.evemu"
        let expected = try Executables.run("pressurectl", ["replay", fixture]).stdout
        let conf = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: conf) }
        // /dev/null opens read-write but is no input device (its ioctls fail); the other is not there at all.
        try "[haptics]\nDevice = /dev/null /dev/input/no-such-vibrator\n".write(to: conf, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(["--replay", fixture, "--speed", "0", "--exit-when-done", "--config", conf.path])
        let c = try SocketClient(path: d.socketPath)
        let hello = try XCTUnwrap(c.readObject())
        XCTAssertEqual((hello["settings"] as? [String: Any])?["haptics"] as? Bool, true)
        c.send(#"{"request":"subscribe"}"# + "\n")
        let lines = c.readAll()
        XCTAssertEqual(d.wait(), 0, d.log)
        let events = lines.filter { $0.contains(#""contact":"#) || $0.hasPrefix(#"{"type":"device","change":"changed""#) }
        XCTAssertEqual(events.joined(separator: "\n") + "\n", expected)
        XCTAssertTrue(d.log.contains("haptics: /dev/null: ioctl(EVIOCGBIT(EV_FF))"), d.log)
        XCTAssertTrue(d.log.contains("haptics: /dev/input/no-such-vibrator: open"), d.log)
        XCTAssertTrue(d.log.contains("haptics: no haptic device found"), d.log)
    }
}
