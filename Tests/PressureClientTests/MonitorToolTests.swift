import Foundation
import PressureClient
import TestSupport
import XCTest

/// `pressurectl monitor` end to end against a replay daemon.
final class MonitorToolTests: XCTestCase {
    func testReadableOutputShowsTheGesturesAndExitsOnBye() throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder, extra: ["--speed", "0", "--exit-when-done"])
        let run = try Executables.run("pressurectl", ["monitor", "--socket", daemon.socketPath])
        XCTAssertEqual(run.status, 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.first?.hasPrefix("pressured \(pressuredVersion) (protocol 1)") ?? false, run.stdout)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("device 1  \"pressured fixture: peek-pop\"  touchscreen  force unavailable (learning)") },
            run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("device 1 changed  \"pressured fixture: peek-pop\"  touchscreen  force available, max 4.01") }, run.stdout)
        let gestures = lines.filter { $0.contains("contact") }
        XCTAssertEqual(gestures.count, 4, run.stdout)
        XCTAssertEqual(
            gestures.map { $0.split(separator: " ", omittingEmptySubsequences: true)[5] }, ["peek", "pop", "peek", "dismiss"])
        XCTAssertTrue(gestures[0].hasPrefix("1.900000  device 1  contact 9  peek "), gestures[0])
        XCTAssertTrue(gestures[0].hasSuffix("at (1000, 1500)  force 1.49 / 4.01"), gestures[0])
        XCTAssertTrue(lines.contains { $0.hasPrefix("device 1 removed  ") }, run.stdout)
        XCTAssertEqual(lines.last, "bye: shutdown")
        XCTAssertEqual(daemon.wait(), 0, daemon.log)
    }

    func testTouchesAddTouchLines() throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder, extra: ["--speed", "0", "--exit-when-done"])
        let run = try Executables.run("pressurectl", ["monitor", "--touches", "--socket", daemon.socketPath])
        XCTAssertEqual(run.status, 0, run.stderr)
        let expected = try Executables.run("pressurectl", ["replay", "--touches", "Tests/Fixtures/peek-pop.evemu"]).stdout
        let touchLines = run.stdout.split(separator: "\n").filter { $0.contains("  touch ") }
        XCTAssertEqual(touchLines.count, expected.split(separator: "\n").filter { $0.contains(#""type":"touch""#) }.count)
        XCTAssertTrue(touchLines.first?.contains("touch began") ?? false, run.stdout)
        XCTAssertTrue(touchLines.contains { $0.contains("progress ") }, run.stdout)
    }

    /// `--json` prints exactly the bytes the daemon sends a client making the same subscription.
    func testJSONOutputIsTheDaemonsLines() throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder, extra: ["--speed", "0", "--exit-when-done"])
        let run = try Executables.run("pressurectl", ["monitor", "--json", "--socket", daemon.socketPath])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(daemon.wait(), 0, daemon.log)

        let other = try TemporaryFolder()
        let reference = try DaemonProcess(replay: "peek-pop.evemu", in: other, extra: ["--speed", "0", "--exit-when-done"])
        let raw = try SocketClient(path: reference.socketPath)
        defer { raw.close() }
        raw.send(#"{"request":"subscribe","id":1,"events":["gestures","devices"]}"# + "\n")
        let expected = raw.readText()
        XCTAssertEqual(run.stdout, expected)
        XCTAssertEqual(run.stdout.split(separator: "\n").filter { $0.contains(#""type":"peek""#) }.count, 2)
        XCTAssertTrue(run.stdout.hasSuffix(#"{"type":"bye","reason":"shutdown"}"# + "\n"), run.stdout)
    }

    func testNoDaemonIsExitOneWithAClearMessage() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("absent.sock").path
        let run = try Executables.run("pressurectl", ["monitor", "--socket", path])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, "")
        XCTAssertTrue(run.stderr.contains("cannot connect to \(path): No such file or directory"), run.stderr)
    }

    func testBadUsageIsExitTwo() throws {
        let run = try Executables.run("pressurectl", ["monitor", "--frobnicate"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("usage: pressurectl monitor"), run.stderr)
    }
}
