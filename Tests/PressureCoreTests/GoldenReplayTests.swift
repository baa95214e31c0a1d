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

    /// The scenario each fixture was written for, in gestures.
    func testFixtureScenarios() throws {
        func gestures(_ name: String) throws -> [String] {
            let c = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent(name))
            return try FixtureFiles.replayLines(c, touches: false).map { line in
                let type = line.split(separator: "\"")[3]
                let contact = line.split(separator: ",").first { $0.hasPrefix("\"contact\"") }!.split(separator: ":")[1]
                return "\(type)#\(contact)"
            }
        }
        XCTAssertEqual(try gestures("peek-pop.evemu"), ["peek#1", "pop#1", "peek#2", "dismiss#2"])
        XCTAssertEqual(try gestures("quick-actions-hold.evemu"), ["peek#1", "quickActions#1", "dismiss#1", "longPress#2"])
        XCTAssertEqual(try gestures("resistive-single-touch.evemu"), ["peek#1", "dismiss#1", "longPress#2"])
        XCTAssertEqual(try gestures("no-pressure.evemu"), ["longPress#1"])
        XCTAssertEqual(try gestures("protocol-a.evemu"), ["peek#1", "pop#1"])
        XCTAssertEqual(try gestures("dropped-and-oddities.evemu"), ["peek#1", "dismiss#1", "peek#3", "pop#3"])
        // The text logs of other tools: a light tap then a firm press on an assumed 0..255 range; a described
        // touchscreen whose events are interleaved with a key device's; the first of two evtest sessions.
        XCTAssertEqual(try gestures("headerless-one-slot.getevent.txt"), ["peek#2", "pop#2"])
        XCTAssertEqual(try gestures("two-devices.getevent.txt"), ["peek#1", "pop#1"])
        XCTAssertEqual(try gestures("two-sessions.evtest.txt"), ["peek#1", "pop#1"])
    }
}
