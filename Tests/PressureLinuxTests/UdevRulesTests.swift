
import Foundation
import Glibc
@testable import PressureCapture
import PressureCore
@testable import PressureLinux
import TestSupport
import XCTest

/// What `udev-rules/70-pressured.rules` and ``TouchDeviceFilter`` decide for real devices' descriptions:
/// the fixtures' and, where present, the shared recordings' (`../shared/captures`). The rules' test of
/// "with pressure" is a glob over the kernel's `capabilities/abs` text, so it is applied here as udev
/// applies it (fnmatch) to the text the kernel would print for each description.
final class UdevRulesTests: XCTestCase {
    static let rules = Executables.repoRoot.appendingPathComponent("udev-rules/70-pressured.rules")

    /// The rules' `ATTRS{capabilities/abs}=="…"` patterns, in order.
    func pressurePatterns() throws -> [String] {
        let text = try String(contentsOf: Self.rules, encoding: .utf8)
        let key = #"ATTRS{capabilities/abs}==""#
        let patterns = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> String? in
            guard let r = line.range(of: key) else { return nil }
            return String(line[r.upperBound...].prefix { $0 != "\"" })
        }
        XCTAssertEqual(patterns.count, 2, "one pattern for ABS_PRESSURE, one for ABS_MT_PRESSURE")
        return patterns
    }

    /// `capabilities/abs` as the kernel prints it on a 64-bit machine (ABS_CNT is 64: one word, in hex
    /// without leading zeros, `0` when empty).
    static func capabilitiesAbs(_ d: DeviceDescription) -> String {
        let bits = (d.codes[EventType.abs] ?? []).reduce(UInt64(0)) { $1 < 64 ? $0 | (1 << UInt64($1)) : $0 }
        return String(bits, radix: 16)
    }

    /// Whether the rules take a touchpad with this description (they take every touchscreen).
    func rulesSayPressure(_ d: DeviceDescription, _ patterns: [String]) -> Bool {
        let abs = Self.capabilitiesAbs(d)
        return patterns.contains { fnmatch($0, abs, 0) == 0 }
    }

    static func hasPressure(_ d: DeviceDescription) -> Bool {
        d.has(type: EventType.abs, code: AbsCode.pressure) || d.has(type: EventType.abs, code: AbsCode.mtPressure)
    }

    /// Every device of every capture in `folder` the readers take, by file name (and device index where a
    /// file holds several).
    func descriptions(in folder: URL, only suffixes: [String]) throws -> [(String, DeviceDescription)] {
        var out: [(String, DeviceDescription)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where suffixes.contains(where: { name.hasSuffix($0) }) {
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            for index in 0..<4 {
                guard let c = try? CaptureReader.read(bytes, file: name, deviceIndex: index) else { break }
                out.append(("\(name) device \(index)", c.device))
            }
        }
        return out
    }

    func testThePressurePatternsFollowTheAxesOfTheFixtures() throws {
        let patterns = try pressurePatterns()
        let devices = try descriptions(
            in: Executables.repoRoot.appendingPathComponent("Tests/Fixtures"),
            only: [".evemu", ".yml", ".evtest.txt", ".getevent.txt"])
        XCTAssertGreaterThanOrEqual(devices.count, 14)
        var withPressure = 0
        for (name, d) in devices {
            XCTAssertEqual(rulesSayPressure(d, patterns), Self.hasPressure(d), "\(name): abs \(Self.capabilitiesAbs(d))")
            if Self.hasPressure(d) { withPressure += 1 }
        }
        XCTAssertGreaterThan(withPressure, 0)
        XCTAssertLessThan(withPressure, devices.count, "no-pressure.evemu and two-devices' keyboard have none")
    }

    /// The axes one at a time and together: each pressure code on its own is found, and no neighbour is
    /// taken for one (the globs count hex digits from the right, so an axis in the wrong digit would show).
    func testThePressurePatternsAgainstSingleAxes() throws {
        let patterns = try pressurePatterns()
        for code in UInt16(0)..<64 {
            let d = DeviceDescription(name: "axis \(code)", codes: [EventType.abs: [AbsCode.x, AbsCode.y, code]])
            let expected = code == AbsCode.pressure || code == AbsCode.mtPressure
            XCTAssertEqual(rulesSayPressure(d, patterns), expected, "ABS code 0x\(String(code, radix: 16))")
        }
        let all = DeviceDescription(name: "all", codes: [EventType.abs: Set(0..<64)])
        XCTAssertEqual(Self.capabilitiesAbs(all), "ffffffffffffffff")
        XCTAssertTrue(rulesSayPressure(all, patterns))
        XCTAssertEqual(Self.capabilitiesAbs(DeviceDescription(name: "none")), "0")
        XCTAssertFalse(rulesSayPressure(DeviceDescription(name: "none"), patterns))
    }

    /// The recordings of real panels: each is a touch device to the filter (they are recordings of fingers
    /// on touchscreens and touchpads), the core takes it, and the rules' globs agree with its axes.
    func testRealRecordingsArePassedByTheFilterAndTheRules() throws {
        let shared = Executables.repoRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")
        guard FileManager.default.fileExists(atPath: shared.path) else { throw XCTSkip("no shared captures") }
        let patterns = try pressurePatterns()
        let devices = try descriptions(in: shared, only: [".evemu"])
        XCTAssertGreaterThanOrEqual(devices.count, 15)
        for (name, d) in devices {
            XCTAssertTrue(TouchDeviceFilter.isTouch(d), name)
            XCTAssertNoThrow(try TouchDevice(d), name)
            XCTAssertEqual(rulesSayPressure(d, patterns), Self.hasPressure(d), "\(name): abs \(Self.capabilitiesAbs(d))")
        }
    }
}
