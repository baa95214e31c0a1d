import Foundation
import Glibc
import TestSupport
import XCTest

@testable import PressureLinux

/// What the udev rules, the sysusers file and the unit grant for haptic devices, read from the files the
/// project installs, against ``HapticDeviceFilter`` (the daemon's own judgement of the same nodes).
final class HapticRulesTests: XCTestCase {
    func file(_ path: String) throws -> [String] {
        try String(contentsOf: Executables.repoRoot.appendingPathComponent(path), encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }

    func testOnlyHapticNodesGetTheHapticGroupAndNothingElseChangesOwner() throws {
        let rules = try file("udev-rules/70-pressured.rules")
        let owners = rules.filter { $0.contains("GROUP=") || $0.contains("MODE=") || $0.contains("OWNER=") }
        XCTAssertEqual(owners, [#"ENV{PRESSURED_HAPTIC}="1", GROUP="pressured-haptic", MODE="0660""#])
        // The haptic section comes before the touch classification, and leaves touch devices and joysticks alone.
        let haptic = try XCTUnwrap(rules.firstIndex { $0.hasPrefix(#"LABEL="pressured_haptic""#) })
        for key in ["ID_INPUT_TOUCHSCREEN", "ID_INPUT_TOUCHPAD", "ID_INPUT_JOYSTICK"] {
            let line = try XCTUnwrap(rules.firstIndex { $0.hasPrefix("ENV{\(key)}==\"1\", GOTO=\"pressured_touch\"") }, key)
            XCTAssertLessThan(line, haptic)
        }
    }

    func testThePressurePadPatternFindsFFHapticAsTheDaemonDoes() throws {
        let rules = try file("udev-rules/70-pressured.rules")
        let key = #"ATTRS{capabilities/ff}==""#
        let patterns = rules.filter { $0.contains("ENV{ID_INPUT_TOUCHPAD}") && $0.contains(key) }.compactMap { line -> String? in
            guard let r = line.range(of: key) else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
        let pattern = try XCTUnwrap(patterns.first)
        for bitmap in ["8000 0", "18000 0", "ff8000 1", "10000 0", "7fff 0", "0", "8000"] {
            let daemon = HapticDeviceFilter.isHaptic(properties: ["ID_INPUT_TOUCHPAD": "1"], ffCapabilities: bitmap)
            XCTAssertEqual(fnmatch(pattern, bitmap, 0) == 0, daemon && bitmap.contains(" "), bitmap)
        }
    }

    func testTheUnitJoinsTheHapticGroupAndMayWriteInputDevicesOnly() throws {
        let unit = try file("systemd/pressured.service")
        XCTAssertTrue(unit.contains("SupplementaryGroups=input pressured-haptic"))
        XCTAssertEqual(unit.filter { $0.hasPrefix("DeviceAllow=") }, ["DeviceAllow=char-input rw"])
        XCTAssertTrue(unit.contains("DevicePolicy=closed"))
        let sysusers = try file("systemd/pressured.sysusers")
        XCTAssertTrue(sysusers.contains("g pressured-haptic -"))
        XCTAssertTrue(sysusers.contains("m pressured pressured-haptic"))
    }

    /// With write access granted to every input node by the cgroup, the daemon's own discipline is what
    /// keeps touch nodes read-only: the one place it opens them says so.
    func testTouchNodesAreOpenedReadOnly() throws {
        let source = try String(
            contentsOf: Executables.repoRoot.appendingPathComponent("Sources/PressureLinux/Input/EvdevDevice.swift"),
            encoding: .utf8)
        XCTAssertTrue(source.contains("open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)"))
        XCTAssertFalse(source.contains("O_RDWR"))
        let writers = try FileManager.default.subpathsOfDirectory(
            atPath: Executables.repoRoot.appendingPathComponent("Sources").path
        ).filter { $0.hasSuffix(".swift") }.filter { path in
            let text = (try? String(contentsOf: Executables.repoRoot.appendingPathComponent("Sources/" + path), encoding: .utf8)) ?? ""
            return text.contains("O_RDWR")
        }
        XCTAssertEqual(writers, ["PressureLinux/Haptics/KernelForceFeedback.swift"], "only haptic nodes are opened for writing")
        // Filter mode writes its clone through /dev/uinput, and opens nothing else.
        let clone = try String(
            contentsOf: Executables.repoRoot.appendingPathComponent("Sources/PressureLinux/Input/TouchClone.swift"),
            encoding: .utf8)
        XCTAssertEqual(clone.components(separatedBy: "open(").count - 1, 1, "one open, of /dev/uinput")
        XCTAssertTrue(clone.contains(#"open("/dev/uinput", O_WRONLY | O_CLOEXEC)"#))
    }
}
