import Foundation
import XCTest
@testable import PressureCore

/// Each fixture under `Tests/Fixtures` replays to exactly the JSON lines in `Tests/Golden/<name>.jsonl`.
/// `PRESSURED_REGENERATE_GOLDENS=1 swift test --filter GoldenReplay` rewrites them; read the diff.
final class GoldenReplayTests: XCTestCase {
    func testEveryFixtureMatchesItsGolden() throws {
        let regenerate = ProcessInfo.processInfo.environment["PRESSURED_REGENERATE_GOLDENS"] == "1"
        let names = try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.fixtures.path)
            .filter { n in [".evemu", ".yml", ".evtest.txt", ".getevent.txt"].contains { n.hasSuffix($0) } }.sorted()
        XCTAssertGreaterThanOrEqual(names.count, 11)
        try FileManager.default.createDirectory(at: FixtureFiles.goldens, withIntermediateDirectories: true)
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
            let expected = try String(contentsOf: golden, encoding: .utf8).split(separator: "\n").map(String.init)
            XCTAssertEqual(got.count, expected.count, "\(name): line count")
            for (i, (g, e)) in zip(got, expected).enumerated() where g != e {
                XCTFail("\(name) line \(i + 1):\n  expected \(e)\n  got      \(g)")
                break
            }
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
