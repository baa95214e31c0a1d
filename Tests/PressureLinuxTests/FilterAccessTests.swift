import Foundation
import PressureDeviceTools
import TestSupport
import XCTest

/// `pressurectl filter enable | disable | status` writing real files into a scratch root (`--root`, as an
/// image build would): what the drop-in and the udev rule grant, that they go again, the typed refusals,
/// and that the package itself grants nothing (docs/filter.md, "Access").
final class FilterAccessTests: XCTestCase {
    /// A scratch root with what a Debian system with the package installed has: the unit and udev
    /// folders, and the group from the package's sysusers file.
    func systemRoot() throws -> URL {
        let root = try temporaryFolder(self)
        for dir in ["etc/systemd/system", "etc/udev", "etc/pressured"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        try "root:x:0:\npressured:x:998:\npressured-uinput:x:997:\n".write(
            to: root.appendingPathComponent("etc/group"), atomically: true, encoding: .utf8)
        return root
    }

    func contents(_ root: URL, _ path: String) -> String? {
        try? String(contentsOf: root.appendingPathComponent(String(path.dropFirst())), encoding: .utf8)
    }

    /// `Key=value` lines of a file, comments left out.
    func settings(_ text: String) -> [String: [String]] {
        var out: [String: [String]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            out[String(line[..<eq]), default: []].append(String(line[line.index(after: eq)...]))
        }
        return out
    }

    func testEnableWritesTheDropInAndTheRuleAndDisableTakesThemBack() throws {
        let root = try systemRoot()
        // Another drop-in of the admin's own: disable must leave it and its folder.
        let other = root.appendingPathComponent("etc/systemd/system/pressured.service.d/local.conf")
        let enable = try Executables.run("pressurectl", ["filter", "enable", "--root", root.path])
        XCTAssertEqual(enable.status, 0, enable.stderr)
        XCTAssertTrue(enable.stdout.contains("nothing reloaded"), enable.stdout)
        XCTAssertTrue(enable.stdout.contains("Filter = on"), "says filter mode itself is still off: \(enable.stdout)")

        let dropIn = try XCTUnwrap(contents(root, FilterAccess.dropInPath))
        XCTAssertTrue(dropIn.contains("\n[Service]\n"))
        let s = settings(dropIn)
        XCTAssertEqual(s["WatchdogSec"], ["1s"])
        XCTAssertEqual(s["WatchdogSignal"], ["SIGABRT"])
        XCTAssertEqual(s["FileDescriptorStoreMax"], ["64"], "the clones outlive a restart")
        XCTAssertEqual(s["DeviceAllow"], ["/dev/uinput rw"], "uinput and nothing else")
        XCTAssertEqual(s["SupplementaryGroups"], ["pressured-uinput"], "never `pressured`, the clients' group")
        XCTAssertNil(s["Restart"], "the unit's Restart=on-failure stands")
        let rule = try XCTUnwrap(contents(root, FilterAccess.udevRulePath))
        XCTAssertTrue(rule.contains(#"KERNEL=="uinput", GROUP="pressured-uinput", MODE="0660""#), rule)

        // Again: the same files, replaced whole, nothing left beside them.
        try "[Service]\nNice=-5\n".write(to: other, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Executables.run("pressurectl", ["filter", "enable", "--root", root.path]).status, 0)
        let dir = root.appendingPathComponent("etc/systemd/system/pressured.service.d").path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["filter.conf", "local.conf"])
        let rules = root.appendingPathComponent("etc/udev/rules.d").path
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: rules), ["70-pressured-uinput.rules"])

        try "[pressured]\nFilter = on\n".write(
            to: root.appendingPathComponent("etc/pressured/pressured.conf"), atomically: true, encoding: .utf8)
        let status = try Executables.run("pressurectl", ["filter", "status", "--root", root.path])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("granted to pressured.service (watchdog on)"), status.stdout)
        XCTAssertTrue(status.stdout.contains("gid 997"), status.stdout)
        XCTAssertTrue(status.stdout.contains("on: [pressured] \(root.path)/etc/pressured/pressured.conf:2"), status.stdout)

        let disable = try Executables.run("pressurectl", ["filter", "disable", "--root", root.path])
        XCTAssertEqual(disable.status, 0, disable.stderr)
        XCTAssertNil(contents(root, FilterAccess.dropInPath))
        XCTAssertNil(contents(root, FilterAccess.udevRulePath))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["local.conf"])
        XCTAssertEqual(FilterAccess(root: root.path).inspect().granted, false)
        // Disabling what is not there is no error.
        XCTAssertEqual(try Executables.run("pressurectl", ["filter", "disable", "--root", root.path]).status, 0)
        let after = try Executables.run("pressurectl", ["filter", "status", "--root", root.path])
        XCTAssertTrue(after.stdout.contains("not granted"), after.stdout)
    }

    func testAnEditedFileIsToldApart() throws {
        let root = try systemRoot()
        let access = FilterAccess(root: root.path + "/")
        try access.enable()
        XCTAssertEqual(access.inspect().dropIn, .asWritten)
        try "[Service]\nWatchdogSec=5s\n".write(
            to: root.appendingPathComponent(String(FilterAccess.dropInPath.dropFirst())), atomically: true, encoding: .utf8)
        let state = access.inspect()
        XCTAssertEqual(state.dropIn, .changed)
        XCTAssertEqual(state.udevRule, .asWritten)
        XCTAssertTrue(state.granted)
    }

    func testEnableRefusesWhatWouldNotWork() throws {
        let bare = try temporaryFolder(self)
        XCTAssertThrowsError(try FilterAccess(root: bare.path).enable()) {
            XCTAssertEqual($0 as? FilterAccessError, .unitDirectoryMissing(bare.path + "/etc/systemd/system"))
        }
        try FileManager.default.createDirectory(
            at: bare.appendingPathComponent("etc/systemd/system"), withIntermediateDirectories: true)
        XCTAssertThrowsError(try FilterAccess(root: bare.path).enable()) {
            XCTAssertEqual($0 as? FilterAccessError, .udevDirectoryMissing(bare.path + "/etc/udev"))
        }
        try FileManager.default.createDirectory(at: bare.appendingPathComponent("etc/udev"), withIntermediateDirectories: true)
        // Without the group the unit would not even start (216/GROUP): refused, and nothing written.
        let r = try Executables.run("pressurectl", ["filter", "enable", "--root", bare.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("no group pressured-uinput in \(bare.path)/etc/group"), r.stderr)
        XCTAssertNil(contents(bare, FilterAccess.udevRulePath))
        XCTAssertEqual(try Executables.run("pressurectl", ["filter", "bogus"]).status, 2)
        XCTAssertEqual(try Executables.run("pressurectl", ["filter"]).status, 2)
    }

    /// The package declares the group and grants nothing with it: no member, no rule, no unit line.
    func testThePackageShipsTheGroupButNoGrant() throws {
        func text(_ path: String) throws -> String {
            try String(contentsOf: Executables.repoRoot.appendingPathComponent(path), encoding: .utf8)
        }
        let sysusers = try text("systemd/pressured.sysusers").split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertTrue(sysusers.contains("g pressured-uinput -"), "\(sysusers)")
        XCTAssertFalse(sysusers.contains { $0.hasPrefix("m ") && $0.hasSuffix(" pressured-uinput") }, "\(sysusers)")
        let unit = try text("systemd/pressured.service").split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertFalse(unit.contains { $0.contains("uinput") }, "the shipped unit grants no uinput")
        XCTAssertFalse(unit.contains { $0.hasPrefix("WatchdogSec=") }, "nor turns the watchdog on")
        let rules = try text("udev-rules/70-pressured.rules").split(separator: "\n").filter { !$0.hasPrefix("#") }
        XCTAssertFalse(rules.contains { $0.contains("uinput") }, "nor do the shipped rules")
    }
}
