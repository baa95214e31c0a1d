import Foundation
import TestSupport
import XCTest
@testable import PressureCore
@testable import PressureLinux

/// `pressurectl replay` end to end: the built binary, real files, exit statuses and messages.
final class ReplayCommandTests: XCTestCase {
    let fixtures = Executables.repoRoot.appendingPathComponent("Tests/Fixtures")
    let goldens = Executables.repoRoot.appendingPathComponent("Tests/Golden")

    func testReplayPrintsExactlyTheGoldenLines() throws {
        for name in ["peek-pop.evemu", "elan-two-devices.yml", "dropped-and-oddities.evemu"] {
            let r = try Executables.run("pressurectl", ["replay", "--touches", "Tests/Fixtures/\(name)"])
            XCTAssertEqual(r.status, 0, r.stderr)
            let golden = try String(contentsOf: goldens.appendingPathComponent(name + ".jsonl"), encoding: .utf8)
            assertSameLines(UnifiedDiff.lines(of: r.stdout), UnifiedDiff.lines(of: golden), expectedName: "Tests/Golden/\(name).jsonl",
                            gotName: "pressurectl replay --touches Tests/Fixtures/\(name)")
            XCTAssertTrue(r.stdout.hasSuffix("\n"), "\(name): the last line ends with a newline")
        }
    }

    func testGesturesOnlyByDefaultAndEveryLineIsJSON() throws {
        let r = try Executables.run("pressurectl", ["replay", "Tests/Fixtures/peek-pop.evemu"])
        XCTAssertEqual(r.status, 0)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 5)
        for line in lines {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            XCTAssertNotEqual(object?["type"] as? String, "touch")
            guard object?["type"] as? String != "device" else {
                // The device learned its average touch from its eight ordinary taps: force is available.
                XCTAssertEqual(object?["change"] as? String, "changed")
                XCTAssertEqual((object?["device"] as? [String: Any])?["forceCapability"] as? String, "available")
                continue
            }
            XCTAssertNotNil(object?["time"] as? Double)
        }
    }

    func testAMalformedLineNamesFileAndLineAndPrintsNothing() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = try String(contentsOf: fixtures.appendingPathComponent("peek-pop.evemu"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let bad = lines.count - 10
        lines[bad] = "E: 1.5 0003 zz 12"
        text = lines.joined(separator: "\n")
        let file = dir.appendingPathComponent("broken.evemu")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let r = try Executables.run("pressurectl", ["replay", file.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("broken.evemu:\(bad + 1):"), r.stderr)

        let cut = dir.appendingPathComponent("cut.evemu")
        try String(text.prefix(text.count / 2)).dropLast(3).write(to: cut, atomically: true, encoding: .utf8)
        let c = try Executables.run("pressurectl", ["replay", cut.path])
        XCTAssertEqual(c.status, 1, c.stdout)
        XCTAssertTrue(c.stderr.contains("cut.evemu:"), c.stderr)

        let version = dir.appendingPathComponent("v9.evemu")
        try "# EVEMU 9.0\nN: x\n".write(to: version, atomically: true, encoding: .utf8)
        let v = try Executables.run("pressurectl", ["replay", version.path])
        XCTAssertEqual(v.status, 1)
        XCTAssertTrue(v.stderr.contains("v9.evemu:1: unsupported capture version EVEMU 9.0"), v.stderr)
    }

    func testMissingFileBadUsageAndNonTouchDevice() throws {
        let missing = try Executables.run("pressurectl", ["replay", "/nonexistent/x.evemu"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nonexistent/x.evemu: open: No such file or directory"), missing.stderr)
        let usage = try Executables.run("pressurectl", ["replay", "--bogus", "a.evemu"])
        XCTAssertEqual(usage.status, 2)
        XCTAssertTrue(usage.stderr.contains("unknown option --bogus"))
        let device = try Executables.run("pressurectl", ["replay", "--device", "0", "Tests/Fixtures/elan-two-devices.yml"])
        XCTAssertEqual(device.status, 1)
        XCTAssertTrue(device.stderr.contains("no touch device"), device.stderr)
        let headerless = try Executables.run("pressurectl", ["replay", "Tests/Golden/peek-pop.evemu.jsonl"])
        XCTAssertEqual(headerless.status, 1)
    }

    func testSettingsFromTheCommandLineAndAConfigurationFile() throws {
        let off = try Executables.run("pressurectl", ["replay", "--force-touch", "off", "Tests/Fixtures/quick-actions-hold.evemu"])
        // The first contact swipes (no long press); the second holds still.
        XCTAssertEqual(off.stdout.split(separator: "\n").map { try? JSONParser.parse(String($0))["type"]?.stringValue }, ["longPress"])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("pressured.conf")
        // An average touch at raw 100 makes the top (1023) force 10.23 and pop (5.0) raw 500.
        try "[pressured]\nSensitivity=medium\n\n[fixture]\nMatchName=pressured fixture:*\nPressureAverage=100\n"
            .write(to: conf, atomically: true, encoding: .utf8)
        let r = try Executables.run("pressurectl", ["replay", "--config", conf.path, "Tests/Fixtures/peek-pop.evemu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains(#""maximumPossibleForce":10.23"#), r.stdout)
        try "[fixture]\nPressureAverage=abc\n".write(to: conf, atomically: true, encoding: .utf8)
        let bad = try Executables.run("pressurectl", ["replay", "--config", conf.path, "Tests/Fixtures/peek-pop.evemu"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("pressured.conf:2:"), bad.stderr)
    }

    func testPalmsAreCountedOnStderrAndTheTrackerKeysApply() throws {
        let r = try Executables.run("pressurectl", ["replay", "Tests/Fixtures/palms-and-hover.evemu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("4 palms ignored (2 MT_TOOL_PALM, 2 larger than the palm size)"), r.stderr)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let conf = dir.appendingPathComponent("pressured.conf")
        try "[pressured]\nPalmSizeMm = off\n".write(to: conf, atomically: true, encoding: .utf8)
        let off = try Executables.run("pressurectl", ["replay", "--config", conf.path, "Tests/Fixtures/palms-and-hover.evemu"])
        XCTAssertTrue(off.stderr.contains("2 palms ignored (2 MT_TOOL_PALM, 0 larger"), off.stderr)
        // Thresholds low enough for the light brush to touch: one contact more.
        try "[panel]\nMatchName=*without BTN_TOUCH\nPressureTouchDown=20\nPressureTouchUp=10\n"
            .write(to: conf, atomically: true, encoding: .utf8)
        let fixture = "Tests/Fixtures/resistive-without-btn-touch.evemu"
        let low = try Executables.run("pressurectl", ["replay", "--touches", "--config", conf.path, fixture])
        XCTAssertEqual(low.status, 0, low.stderr)
        XCTAssertEqual(low.stdout.components(separatedBy: #""phase":"began""#).count - 1, 8 + 3)  // 8 warm-up taps
        try "[panel]\nMatchName=*without BTN_TOUCH\nPressureTouchDown=300\n".write(to: conf, atomically: true, encoding: .utf8)
        let bad = try Executables.run("pressurectl", ["replay", "--config", conf.path, fixture])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("pressured.conf:1: touch thresholds for"), bad.stderr)
    }

    func testDescriptionFileForHeaderlessEvents() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = try String(contentsOf: fixtures.appendingPathComponent("peek-pop.evemu"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        try (lines.filter { !$0.hasPrefix("E:") }.joined(separator: "\n") + "\n")
            .write(to: dir.appendingPathComponent("d.desc"), atomically: true, encoding: .utf8)
        try (lines.filter { $0.hasPrefix("E:") }.joined(separator: "\n") + "\n")
            .write(to: dir.appendingPathComponent("e.events"), atomically: true, encoding: .utf8)
        let none = try Executables.run("pressurectl", ["replay", dir.appendingPathComponent("e.events").path])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("--desc"), none.stderr)
        let r = try Executables.run("pressurectl", [
            "replay", "--desc", dir.appendingPathComponent("d.desc").path, dir.appendingPathComponent("e.events").path,
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        let whole = try Executables.run("pressurectl", ["replay", "Tests/Fixtures/peek-pop.evemu"])
        // The same, but for the device's node in the `device changed` line.
        let node = "replay:" + dir.appendingPathComponent("e.events").path
        XCTAssertEqual(
            r.stdout.replacingOccurrences(of: node, with: "replay:Tests/Fixtures/peek-pop.evemu"), whole.stdout)
    }

    func testVerboseLogsEachTransition() throws {
        let r = try Executables.run("pressurectl", ["replay", "--verbose", "Tests/Fixtures/peek-pop.evemu"])
        // The ninth contact, after the eight ordinary taps the device learned from: peek at 353.
        XCTAssertTrue(r.stderr.contains("<7>contact 9: possible → frame(p=380) → peeking"), r.stderr)
    }
}
