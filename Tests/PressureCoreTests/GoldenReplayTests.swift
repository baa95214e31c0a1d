import DeviceTestSupport
import Foundation
import TestSupport
import XCTest
@testable import PressureCore

/// Each fixture under `Tests/Fixtures` replays to exactly the JSON lines in `Tests/Golden/<name>.jsonl`,
/// and every golden has its fixture. A difference fails with the whole unified diff.
/// `PRESSURED_REGENERATE_GOLDENS=1 swift test --filter GoldenReplay` rewrites them (and removes goldens
/// whose fixture is gone); read the diff.
final class GoldenReplayTests: XCTestCase {
    static let captureSuffixes = [".evemu", ".yml", ".evtest.txt", ".getevent.txt"]

    func testEveryFixtureMatchesItsGolden() throws {
        let regenerate = ProcessInfo.processInfo.environment["PRESSURED_REGENERATE_GOLDENS"] == "1"
        let all = try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.fixtures.path)
        let names = all.filter { n in Self.captureSuffixes.contains { n.hasSuffix($0) } }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 11)
        XCTAssertEqual(Set(all).subtracting(names), [], "a file in Tests/Fixtures that no reader takes has no golden")
        try FileManager.default.createDirectory(at: FixtureFiles.goldens, withIntermediateDirectories: true)
        let goldens = try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.goldens.path).sorted()
        for orphan in goldens where !names.contains(where: { $0 + ".jsonl" == orphan }) {
            if regenerate {
                try FileManager.default.removeItem(at: FixtureFiles.goldens.appendingPathComponent(orphan))
            } else {
                XCTFail("Tests/Golden/\(orphan) has no fixture in Tests/Fixtures: remove it, or restore its fixture")
            }
        }
        for name in names {
            let capture = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent(name))
            let got = try FixtureFiles.replayLines(capture, touches: true)
            // Whatever the capture's times do, what goes out never goes back in time, across contacts too.
            let times = try got.compactMap { try JSONParser.parse($0)["time"]?.numberValue }
            if let i = times.indices.dropFirst().first(where: { times[$0] < times[$0 - 1] }) {
                XCTFail("\(name): line \(i + 1) goes back in time: \(got[i])")
            }
            let golden = FixtureFiles.goldens.appendingPathComponent(name + ".jsonl")
            if regenerate {
                try (got.joined(separator: "\n") + "\n").write(to: golden, atomically: true, encoding: .utf8)
                continue
            }
            guard goldens.contains(name + ".jsonl") else {
                XCTFail("Tests/Fixtures/\(name) has no golden: run PRESSURED_REGENERATE_GOLDENS=1 swift test --filter GoldenReplay and read it")
                continue
            }
            let expected = UnifiedDiff.lines(of: try String(contentsOf: golden, encoding: .utf8))
            assertSameLines(got, expected, expectedName: "Tests/Golden/\(name).jsonl", gotName: "replay of Tests/Fixtures/\(name)",
                            "regenerate if that is meant, and say why")
        }
    }

    /// The scenario each fixture was written for, in gestures (each force fixture opens with eight ordinary
    /// taps the device learns its average touch from, contacts 1–8, so its scenario starts at contact 9), and
    /// where the device became able to give force.
    func testFixtureScenarios() throws {
        func gestures(_ name: String) throws -> [String] {
            let c = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent(name))
            return try FixtureFiles.replayLines(c, touches: false).map { line in
                let v = try JSONParser.parse(line)
                let type = try XCTUnwrap(v["type"]?.stringValue)
                if type == "device" {
                    return "device:" + (v["device"]?["forceCapability"]?.stringValue ?? "?")
                }
                return "\(type)#\(try XCTUnwrap(v["contact"]?.exactInteger))"
            }
        }
        XCTAssertEqual(try gestures("peek-pop.evemu"), ["device:available", "peek#9", "pop#9", "peek#10", "dismiss#10"])
        XCTAssertEqual(
            try gestures("quick-actions-hold.evemu"),
            ["device:available", "peek#9", "quickActions#9", "dismiss#9", "longPress#10"])
        XCTAssertEqual(
            try gestures("resistive-single-touch.evemu"), ["device:available", "peek#9", "dismiss#9", "longPress#10"])
        XCTAssertEqual(try gestures("no-pressure.evemu"), ["longPress#1"])
        // Both due before the next frame: in the order of their deadlines, not of their slots.
        XCTAssertEqual(try gestures("simultaneous-long-presses.evemu"), ["longPress#1", "longPress#2"])
        XCTAssertEqual(try gestures("protocol-a.evemu"), ["device:available", "peek#9", "pop#9"])
        XCTAssertEqual(
            try gestures("dropped-and-oddities.evemu"), ["device:available", "peek#9", "dismiss#9", "peek#11", "pop#11"])
        // The palm's peek is dismissed and nothing else of it or of the other palms is seen (contact 9 is
        // the finger that hovers, lands and rises back into hover).
        XCTAssertEqual(
            try gestures("palms-and-hover.evemu"), ["device:available", "peek#10", "dismiss#10", "longPress#11"])
        // One touch through the wobble (no flapping), no touch for the brush below 30.
        XCTAssertEqual(
            try gestures("resistive-without-btn-touch.evemu"), ["device:available", "peek#9", "dismiss#9", "longPress#10"])
        // The text logs of other tools: a light tap then a firm press on an assumed 0..255 range; a described
        // touchscreen whose events are interleaved with a key device's; the first of two evtest sessions.
        XCTAssertEqual(try gestures("headerless-one-slot.getevent.txt"), ["device:available", "peek#10", "pop#10"])
        XCTAssertEqual(try gestures("two-devices.getevent.txt"), ["device:available", "peek#9", "pop#9"])
        XCTAssertEqual(try gestures("two-sessions.evtest.txt"), ["device:available", "peek#9", "pop#9"])
    }
}
