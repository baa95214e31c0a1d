import Foundation
import Glibc
import TestSupport
import XCTest

/// The daemon with an `[action]` section, replaying a recording: the action fires on the pop's frame
/// (said in the verbose log; a replay makes no uinput devices), and clients get exactly what they get
/// without it: an action is for apps that know nothing of pressured.
final class DaemonActionTests: XCTestCase {
    func testAPopActionFiresAndClientsGetWhatTheyGotWithoutIt() throws {
        let fixture = "Tests/Fixtures/peek-pop.evemu"
        let expected = try Executables.run("pressurectl", ["replay", fixture]).stdout
        let conf = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: conf) }
        try "[action]\nGesture = pop\nDoes = rightClick\n".write(to: conf, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(["--replay", fixture, "--speed", "0", "--exit-when-done", "--verbose", "--config", conf.path])
        let c = try SocketClient(path: d.socketPath)
        _ = try XCTUnwrap(c.readObject())
        c.send(#"{"request":"subscribe"}"# + "\n")
        let lines = c.readAll()
        XCTAssertEqual(d.wait(), 0, d.log)
        let events = lines.filter { $0.contains(#""contact":"#) || $0.hasPrefix(#"{"type":"device","change":"changed""#) }
        XCTAssertEqual(events.joined(separator: "\n") + "\n", expected)
        let fired = d.log.split(separator: "\n").filter { $0.contains("→ rightClick") }
        XCTAssertEqual(fired.count, 1, d.log)
        XCTAssertTrue(fired.first?.contains("device 1 contact 9: pop → rightClick ([action] \(conf.path):1)") ?? false, d.log)
    }
}
