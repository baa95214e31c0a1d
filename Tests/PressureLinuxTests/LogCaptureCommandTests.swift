import Foundation
import TestSupport
import XCTest

/// evtest and getevent logs through the tools that load captures: they replay as evemu does, and what the
/// reader assumed about a header-less log's device is said once per assumption, as a warning.
final class LogCaptureCommandTests: XCTestCase {
    let headerless = "Tests/Fixtures/headerless-one-slot.getevent.txt"

    /// The warning lines a tool printed about `file`.
    func warnings(_ stderr: String, _ tool: String, _ file: String) -> [String] {
        stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("<4>\(tool)\(file): ") }
    }

    func testReplayPrintsTheGoldenLinesAndEachAssumptionOnce() throws {
        let r = try Executables.run("pressurectl", ["replay", "--touches", headerless])
        XCTAssertEqual(r.status, 0, r.stderr)
        let golden = try String(
            contentsOf: Executables.repoRoot.appendingPathComponent("Tests/Golden/headerless-one-slot.getevent.txt.jsonl"),
            encoding: .utf8)
        XCTAssertEqual(r.stdout, golden)
        let w = warnings(r.stderr, "pressurectl replay: ", headerless)
        XCTAssertEqual(w.count, 3, r.stderr)
        XCTAssertEqual(Set(w).count, 3, r.stderr)
        XCTAssertTrue(w[0].contains("no device description in the file (give one with --desc FILE): ABS_MT_PRESSURE 0..255"), w[0])
        XCTAssertTrue(w[1].contains("protocol B with one slot assumed"), w[1])
        XCTAssertTrue(w[2].contains("INPUT_PROP_DIRECT assumed"), w[2])

        // A log that describes its device assumes nothing; --device picks an evtest session.
        let described = try Executables.run("pressurectl", ["replay", "Tests/Fixtures/two-devices.getevent.txt"])
        XCTAssertEqual(described.status, 0, described.stderr)
        XCTAssertEqual(described.stderr, "")
        let second = try Executables.run("pressurectl", ["replay", "--touches", "--device", "1", "Tests/Fixtures/two-sessions.evtest.txt"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout.split(separator: "\n").count, 2, second.stdout)  // one tap: began, ended
        XCTAssertTrue(second.stdout.contains(#""time":1587922846.335151"#), second.stdout)
        let none = try Executables.run("pressurectl", ["replay", "--device", "2", "Tests/Fixtures/two-sessions.evtest.txt"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no device 2: the file holds 2 device(s)"), none.stderr)
    }

    func testPlotCalibrateAndTheDaemonSayTheSame() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let plot = try Executables.run("pressurectl", ["plot", headerless, "-o", dir.appendingPathComponent("p.svg").path])
        XCTAssertEqual(plot.status, 0, plot.stderr)
        XCTAssertEqual(warnings(plot.stderr, "pressurectl plot: ", headerless).count, 3, plot.stderr)
        let cal = try Executables.run("pressurectl", ["calibrate", "--from-capture", headerless, "--taps-until", "0.4"])
        XCTAssertEqual(warnings(cal.stderr, "pressurectl calibrate: ", headerless).count, 3, cal.stderr)
        let d = try DaemonProcess(["--replay", headerless])
        // Apps are told too: the replayed device's description lists what was assumed of it.
        let c = try SocketClient(path: d.socketPath)
        let hello = try XCTUnwrap(c.readObject())
        let assumed = try XCTUnwrap(((hello["devices"] as? [[String: Any]])?.first)?["assumed"] as? [String])
        XCTAssertEqual(assumed.count, 3, "\(assumed)")
        XCTAssertTrue(assumed[0].contains("ABS_MT_PRESSURE 0..255"), assumed[0])
        XCTAssertEqual(d.stop(), 0)
        XCTAssertEqual(warnings(d.log, "replay: ", headerless).count, 3, d.log)
    }

    func testAMalformedLogLineNamesFileAndLineAndPrintsNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var lines = try String(contentsOf: Executables.repoRoot.appendingPathComponent(headerless), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        lines[20] = "[     500.346000] EV_ABS       ABS_MT_PRESSURE      0000zz00"
        let file = dir.appendingPathComponent("broken.getevent.txt")
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        let r = try Executables.run("pressurectl", ["replay", file.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("broken.getevent.txt:21: `0000zz00` is not a value"), r.stderr)
    }
}
