import DeviceTestSupport
import Foundation
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// Every evtest and getevent log in `../shared/captures` reads, and what it holds matches the folder's
/// INDEX.md: the events counted, the contacts that begin (all of which end), the pressure values seen.
/// Skips cleanly where the folder is absent.
final class SharedLogCaptureTests: XCTestCase {
    /// One row of INDEX.md.
    struct Row {
        var events: Int
        var touches: Int
        var pressure: ClosedRange<Int32>
    }

    /// INDEX.md's rows by file name: the `events`, `touches` and `P seen` columns (7th, 8th and 9th of both
    /// tables that list pressure recordings).
    func index(_ dir: URL) throws -> [String: Row] {
        let text = try String(contentsOf: dir.appendingPathComponent("INDEX.md"), encoding: .utf8)
        var rows: [String: Row] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 8, let name = cells[0].split(separator: " ").first,
                name.hasSuffix(".evtest.txt") || name.hasSuffix(".getevent.txt")
            else { continue }
            // "1 (2 fingers)": INDEX counts a protocol-A log's touches as frames going from no contact to some
            // (two fingers landing together are one), where replay begins a contact per finger.
            let touches = cells[6].firstMatch(of: /\((\d+) fingers\)/).map { Int($0.1) } ?? Int(cells[6].prefix { $0.isNumber })
            let seen = cells[8].split(separator: " ")[0].split(separator: "/").compactMap { Double($0).map { Int32($0) } }
            guard let events = Int(cells[5]), let t = touches, seen.count == 3 else {
                XCTFail("INDEX.md row for \(name) not understood: \(line)")
                continue
            }
            rows[String(name)] = Row(events: events, touches: t, pressure: seen[0]...seen[2])
        }
        return rows
    }

    /// The header-less logs' descriptions, as INDEX.md lists them ("The .dat files carry no header; use these").
    func description(for name: String, in dir: URL) throws -> URL? {
        guard name.hasPrefix("cros-link-atmel-touchpad.") || name.hasPrefix("cros-link-touchpad.") else { return nil }
        return dir.appendingPathComponent("cros-link-atmel-touchpad.desc")
    }

    func testEveryLogMatchesTheIndex() throws {
        let dir = FixtureFiles.sharedCaptures
        guard FileManager.default.fileExists(atPath: dir.path) else {
            throw XCTSkip("no shared captures at \(dir.path)")
        }
        let rows = try index(dir)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".evtest.txt") || $0.hasSuffix(".getevent.txt") }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 14)
        for name in names {
            let url = dir.appendingPathComponent(name)
            let desc = try description(for: name, in: dir)
            let row = try XCTUnwrap(rows[name], "\(name) has no row in INDEX.md")
            var devices = 1
            do { _ = try FixtureFiles.capture(url, description: desc, deviceIndex: 1 << 20) } catch let e as CaptureError {
                guard case .noSuchDevice(_, let count) = e.reason else { throw e }
                devices = count
            }
            var events = 0
            var began = 0
            var pressure: ClosedRange<Int32>? = nil
            for i in 0..<devices {
                let capture = try FixtureFiles.capture(url, description: desc, deviceIndex: i)
                events += capture.events.count
                for e in capture.events where e.type == EventType.abs && e.code == AbsCode.mtPressure {
                    pressure = pressure.map { min($0.lowerBound, e.value)...max($0.upperBound, e.value) } ?? e.value...e.value
                }
                let device = try TouchDevice(capture.device)
                let cal = device.pressureAxis.map { ForceCalibration.uncalibrated(axis: $0) }
                var pipeline = TouchPipeline(device: device, deviceID: 1, calibration: cal, settings: GestureSettings(),
                                             reportsTouches: true)
                var check = InvariantChecker(name: "\(name) device \(i)")
                CaptureReplay.run(capture.events, through: &pipeline) { out, _ in
                    for e in out {
                        if case .touch(.began) = e.kind { began += 1 }
                        check.see(e)
                    }
                }
                check.finish()  // every contact that began ended
                // A log that describes its device (or is given a description) assumes no ranges.
                let assumed = capture.assumptions.contains { $0.hasPrefix("no device description") }
                XCTAssertEqual(assumed, desc == nil && name.hasSuffix(".getevent.txt"), "\(name): \(capture.assumptions)")
            }
            XCTAssertEqual(events, row.events, "\(name): events")
            XCTAssertEqual(began, row.touches, "\(name): contacts that begin")
            XCTAssertEqual(pressure, row.pressure, "\(name): ABS_MT_PRESSURE values seen")
        }
    }
}
