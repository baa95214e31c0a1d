import Foundation
import TestSupport
import XCTest

/// `pressurectl reload` against a real `pressured --replay`.
final class ReloadCommandTests: XCTestCase {
    func testReloadAppliesTheNewFileAndReportsARefusal() throws {
        let dir = try temporaryFolder(self)
        let conf = dir.appendingPathComponent("pressured.conf")
        try "[pressured]\nSensitivity=medium\n".write(to: conf, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(["--replay", "Tests/Fixtures/peek-pop.evemu", "--config", conf.path])
        try "[pressured]\nSensitivity=light\nForceTouch=off\n".write(to: conf, atomically: true, encoding: .utf8)
        let r = try Executables.run("pressurectl", ["reload", "--socket", d.socketPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "configuration reloaded: force touch off, sensitivity light, haptics on\n")
        XCTAssertTrue(d.log.contains("configuration reloaded"), d.log)

        try "[pressured]\nSensitivity=squishy\n".write(to: conf, atomically: true, encoding: .utf8)
        let refused = try Executables.run("pressurectl", ["reload", "--socket", d.socketPath])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.stdout, "")
        XCTAssertTrue(refused.stderr.contains("the daemon kept its old configuration"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("pressured.conf:2:"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("fix the file and run `pressurectl reload` again"), refused.stderr)
    }

    func testNoDaemonSaysWhatToCheck() throws {
        let dir = try temporaryFolder(self)
        let r = try Executables.run("pressurectl", ["reload", "--socket", dir.appendingPathComponent("none.sock").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("is pressured running?"), r.stderr)
        let usage = try Executables.run("pressurectl", ["reload", "now"])
        XCTAssertEqual(usage.status, 2)
        let help = try Executables.run("pressurectl", ["reload", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("usage: pressurectl reload [--socket PATH]"), help.stdout)
    }

    /// A peer outside the control group is refused, and told how to get the right.
    func testAPeerOutsideTheControlGroupIsToldToJoinIt() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip("needs root and setpriv to act as another user")
        }
        let d = try DaemonProcess(["--replay", "Tests/Fixtures/peek-pop.evemu"])
        chmod(d.socketPath, 0o666)
        chmod(d.dir.path, 0o755)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        p.arguments = ["--reuid", "65534", "--regid", "1", "--clear-groups", try Executables.url("pressurectl").path,
                       "reload", "--socket", d.socketPath]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        p.waitUntilExit()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 1, stderr)
        XCTAssertTrue(stderr.contains("the daemon refused"), stderr)
        XCTAssertTrue(stderr.contains("join it or use sudo"), stderr)
    }
}
