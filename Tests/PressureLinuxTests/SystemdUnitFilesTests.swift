import Foundation
import TestSupport
import XCTest

/// The shipped units as files: the metrics timer and its service do what docs/metrics.md says, nothing
/// enables them, and `make install`/`uninstall` handle every unit in systemd/.
final class SystemdUnitFilesTests: XCTestCase {
    func text(_ path: String) throws -> String {
        try String(contentsOf: Executables.repoRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// `Key=value` lines of a unit, by section, comments left out (a key may repeat).
    func settings(_ path: String) throws -> [String: [String: [String]]] {
        var out: [String: [String: [String]]] = [:]
        var section = ""
        for line in try text(path).split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
                out[section, default: [:]] = [:]
            } else if let eq = line.firstIndex(of: "=") {
                out[section, default: [:]][String(line[..<eq]), default: []].append(String(line[line.index(after: eq)...]))
            }
        }
        return out
    }

    func testTheMetricsServiceWritesTheTextfileAndMayReachTheSocket() throws {
        let service = try settings("systemd/pressured-metrics.service")
        XCTAssertEqual(service["Service"]?["Type"], ["oneshot"])
        XCTAssertEqual(service["Service"]?["ExecStart"], ["/usr/bin/pressurectl metrics --textfile /var/lib/prometheus/node-exporter"])
        XCTAssertEqual(service["Service"]?["ReadWritePaths"], ["-/var/lib/prometheus/node-exporter"], "the one place it writes")
        // The socket is 0660 for its group: the service is in it.
        let socket = try settings("systemd/pressured.socket")
        let group = try XCTUnwrap(socket["Socket"]?["SocketGroup"]?.first)
        XCTAssertEqual(socket["Socket"]?["SocketMode"], ["0660"])
        XCTAssertEqual(service["Service"]?["SupplementaryGroups"], [group])
        XCTAssertEqual(service["Service"]?["CapabilityBoundingSet"], [""])
        XCTAssertNil(service["Install"], "started by its timer only")
    }

    func testTheTimerRunsItEvery15SecondsOnceEnabled() throws {
        let timer = try settings("systemd/pressured-metrics.timer")
        XCTAssertEqual(timer["Timer"]?["OnUnitActiveSec"], ["15s"])
        XCTAssertEqual(timer["Timer"]?["OnBootSec"], ["15s"])
        XCTAssertNil(timer["Timer"]?["Unit"], "the service of its own name")
        XCTAssertEqual(timer["Install"]?["WantedBy"], ["timers.target"])
    }

    func testMakeInstallsAndUninstallsEveryUnitAndEnablesNone() throws {
        let makefile = try text("Makefile")
        XCTAssertFalse(makefile.contains("systemctl"), "install enables nothing")
        let units = try FileManager.default.contentsOfDirectory(
            atPath: Executables.repoRoot.appendingPathComponent("systemd").path
        ).filter { $0.hasSuffix(".service") || $0.hasSuffix(".socket") || $0.hasSuffix(".timer") }
        XCTAssertTrue(units.contains("pressured-metrics.timer"))
        for unit in units {
            XCTAssertTrue(makefile.contains("$(UNITDIR)/\(unit)"), "\(unit) is in INSTALLED (uninstall removes it)")
            XCTAssertTrue(makefile.contains("$(DESTDIR)$(UNITDIR)/\(unit)\n"), "\(unit) is installed")
        }
        XCTAssertTrue(makefile.contains("$(DOCDIR)/metrics.md"), "the unit's Documentation= is installed")
    }

    /// systemd's own reading of the units, where systemd-analyze is installed (the binary path made real).
    func testSystemdAnalyzeVerifiesThem() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            throw XCTSkip("no systemd-analyze")
        }
        let dir = try temporaryFolder(self)
        let ctl = try Executables.url("pressurectl").path
        let service = try text("systemd/pressured-metrics.service").replacingOccurrences(of: "/usr/bin/pressurectl", with: ctl)
        try service.write(to: dir.appendingPathComponent("pressured-metrics.service"), atomically: true, encoding: .utf8)
        try text("systemd/pressured-metrics.timer").write(
            to: dir.appendingPathComponent("pressured-metrics.timer"), atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
        p.arguments = ["verify", dir.appendingPathComponent("pressured-metrics.service").path,
                       dir.appendingPathComponent("pressured-metrics.timer").path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = err
        try p.run()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, said)
        XCTAssertEqual(said, "", "no warnings")
    }
}
