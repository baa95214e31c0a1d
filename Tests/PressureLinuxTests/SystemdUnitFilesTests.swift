import Foundation
import PressureDeviceTools
import TestSupport
import XCTest

/// The shipped units as files: the metrics timer and its service do what docs/metrics.md says, nothing
/// enables them, and `make install`/`uninstall` (run into a scratch DESTDIR) handle every unit in systemd/.
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

    /// Runs `arguments` (the first found on `path`, else on the test's PATH) from the repository's root, to
    /// the end: its exit status and what it wrote, stdout and stderr together.
    func run(_ arguments: [String], path: String? = nil) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        p.currentDirectoryURL = Executables.repoRoot
        if let path { p.environment = ProcessInfo.processInfo.environment.merging(["PATH": path]) { $1 } }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, said)
    }

    /// Runs `make TARGET` with `variables`, its `build` prerequisite taken as done (`-o`): the binaries
    /// installed are the debug ones the test run has, not a release build.
    func make(_ target: String, _ variables: [String: String], path: String) throws -> (status: Int32, output: String) {
        try run(["make", "-s", "-o", "build", target] + variables.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }, path: path)
    }

    /// `make install` into a scratch DESTDIR, under a PREFIX of its own so the rewritten paths show: every
    /// unit in systemd/ is installed, each service's ExecStart names a binary that was installed, each
    /// unit's documentation is installed, nothing is enabled (no `.wants` link, no `systemctl` run: a
    /// `systemctl` first on PATH would leave a mark); then `make uninstall` leaves no file behind.
    func testMakeInstallsAndUninstallsEveryUnitAndEnablesNone() throws {
        let environmentPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard environmentPath.split(separator: ":").contains(where: {
            FileManager.default.isExecutableFile(atPath: "\($0)/make")
        }) else { throw XCTSkip("no make on PATH") }
        let scratch = try temporaryFolder(self)
        let root = scratch.appendingPathComponent("root"), spy = scratch.appendingPathComponent("spy")
        try FileManager.default.createDirectory(at: spy, withIntermediateDirectories: true)
        let mark = scratch.appendingPathComponent("systemctl-ran").path
        try "#!/bin/sh\necho \"$@\" >> \(mark)\n".write(
            to: spy.appendingPathComponent("systemctl"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: spy.appendingPathComponent("systemctl").path)
        let variables = [
            "DESTDIR": root.path, "PREFIX": "/opt/pressured", "UNITDIR": "/lib/systemd/system",
            "SYSUSERSDIR": "/usr/lib/sysusers.d", "UDEVDIR": "/lib/udev",
            "BIN_PATH": try Executables.url("pressurectl").deletingLastPathComponent().path, "SWIFT": "false",
        ]
        let path = spy.path + ":" + environmentPath
        let install = try make("install", variables, path: path)
        XCTAssertEqual(install.status, 0, install.output)
        func installed(_ p: String) -> URL { root.appendingPathComponent(String(p.drop { $0 == "/" })) }
        func exists(_ p: String) -> Bool { FileManager.default.fileExists(atPath: installed(p).path) }

        let units = try FileManager.default.contentsOfDirectory(
            atPath: Executables.repoRoot.appendingPathComponent("systemd").path
        ).filter { $0.hasSuffix(".service") || $0.hasSuffix(".socket") || $0.hasSuffix(".timer") }
        XCTAssertTrue(units.contains("pressured-metrics.timer"))
        let unitDir = installed("/lib/systemd/system")
        XCTAssertEqual(
            Set(try FileManager.default.contentsOfDirectory(atPath: unitDir.path)), Set(units),
            "the units installed are systemd/'s, and no .wants link beside them")
        for unit in units {
            let text = try String(contentsOf: unitDir.appendingPathComponent(unit), encoding: .utf8)
            for line in text.split(separator: "\n") {
                if line.hasPrefix("ExecStart=") {
                    let binary = String(line.dropFirst("ExecStart=".count).prefix { $0 != " " })
                    XCTAssertTrue(binary.hasPrefix("/opt/pressured/bin/"), "\(unit): \(line)")
                    XCTAssertTrue(
                        FileManager.default.isExecutableFile(atPath: installed(binary).path), "\(unit): \(binary) installed")
                }
                if line.hasPrefix("Documentation=") {
                    for link in line.dropFirst("Documentation=".count).split(separator: " ") {
                        if link.hasPrefix("file://") {
                            let doc = String(link.dropFirst("file://".count))
                                .replacingOccurrences(of: "/usr/share/doc/", with: "/opt/pressured/share/doc/")
                            XCTAssertTrue(exists(doc), "\(unit): \(link) installed (as \(doc))")
                        } else if link.hasPrefix("man:"), let open = link.firstIndex(of: "(") {
                            let name = link[link.index(link.startIndex, offsetBy: 4)..<open]
                            let section = link[link.index(after: open)...].dropLast()
                            XCTAssertTrue(
                                exists("/opt/pressured/share/man/man\(section)/\(name).\(section)"), "\(unit): \(link) installed")
                        }
                    }
                }
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: mark), "install ran systemctl: \((try? String(contentsOfFile: mark, encoding: .utf8)) ?? "")")

        let uninstall = try make("uninstall", variables, path: path)
        XCTAssertEqual(uninstall.status, 0, uninstall.output)
        let left = FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String }.filter {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path, isDirectory: &isDirectory)
                && !isDirectory.boolValue
        } ?? []
        XCTAssertEqual(left, [], "uninstall removes what install put there")
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
        let (status, said) = try run([
            "/usr/bin/systemd-analyze", "verify", dir.appendingPathComponent("pressured-metrics.service").path,
            dir.appendingPathComponent("pressured-metrics.timer").path,
        ])
        XCTAssertEqual(status, 0, said)
        XCTAssertEqual(said, "", "no warnings")
    }

    /// systemd's own score of pressured.service, offline, without and with the drop-in `pressurectl filter
    /// enable` writes (tools/vmtest 25 scores the running unit): filter mode's access costs nothing on the
    /// exposure scale, which stays at 2.0 or lower.
    func testTheExposureStaysAtTwoOrLowerWithFilterModesDropIn() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            throw XCTSkip("no systemd-analyze")
        }
        let root = try temporaryFolder(self)
        let units = root.appendingPathComponent("etc/systemd/system")
        try FileManager.default.createDirectory(at: units, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("etc/udev"), withIntermediateDirectories: true)
        try "pressured-uinput:x:997:\n".write(to: root.appendingPathComponent("etc/group"), atomically: true, encoding: .utf8)
        try text("systemd/pressured.service").write(
            to: units.appendingPathComponent("pressured.service"), atomically: true, encoding: .utf8)
        func exposure() throws -> Double {
            let (_, said) = try run(["/usr/bin/systemd-analyze", "security", "--offline=true", "--root=\(root.path)", "pressured.service"])
            let line = try XCTUnwrap(said.split(separator: "\n").first { $0.contains("Overall exposure level") }, said)
            return try XCTUnwrap(line.split(separator: " ").compactMap { Double($0) }.first, String(line))
        }
        let before = try exposure()
        try FilterAccess(root: root.path).enable()
        let after = try exposure()
        XCTAssertLessThanOrEqual(after, 2.0)
        XCTAssertLessThanOrEqual(after, before + 0.1, "before \(before), after \(after)")
    }
}
