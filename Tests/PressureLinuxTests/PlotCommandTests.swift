import Foundation
import TestSupport
import XCTest

/// `pressurectl plot` end to end: the SVG it writes parses as XML and marks exactly the gestures
/// `pressurectl replay` prints for the same capture, settings and average touch (learned from the
/// capture first by default; `--fresh` as a freshly started daemon learns it, replay's default).
final class PlotCommandTests: XCTestCase {
    func parse(_ url: URL) throws -> [String: [[String: String]]] { try SVGClasses.parse(url) }

    func testThePictureMarksWhatReplayPrints() throws {
        let dir = try temporaryFolder(self)
        let conf = dir.appendingPathComponent("p.conf")
        try "[fixture]\nMatchName=pressured fixture:*\nPressureAverage=100\n".write(to: conf, atomically: true, encoding: .utf8)
        // Whether the device has thresholds to draw: the ELAN screen's one touch is too few to learn from.
        let cases: [(String, [String], Bool)] = [
            ("peek-pop.evemu", [], true),
            ("quick-actions-hold.evemu", ["--sensitivity", "light"], true),
            ("peek-pop.evemu", ["--config", conf.path], true),
            ("elan-two-devices.yml", ["--device", "1"], false),
        ]
        let averages: [(plot: [String], replay: [String])] = [([], ["--learn-first"]), (["--fresh"], [])]
        for (i, ((fixture, options, learned), average)) in cases.flatMap({ c in averages.map { (c, $0) } }).enumerated() {
            let svg = dir.appendingPathComponent("\(i).svg")
            let r = try Executables.run(
                "pressurectl", ["plot", "Tests/Fixtures/\(fixture)", "-o", svg.path] + options + average.plot)
            XCTAssertEqual(r.status, 0, r.stderr)
            let replay = try Executables.run("pressurectl", ["replay", "Tests/Fixtures/\(fixture)"] + options + average.replay)
            let gestures = try replay.stdout.split(separator: "\n").compactMap { line -> String? in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                guard let contact = object?["contact"] as? Int else { return nil }  // `device changed`
                let time = (object?["time"] as? Double) ?? -2
                return "\(object?["type"] as? String ?? "?") \(contact) \(time)"
            }
            let classes = try parse(svg)
            let markers = (classes["gesture"] ?? []).map {
                "\($0["data-kind"] ?? "") \($0["data-contact"] ?? "") \(Double($0["data-time"] ?? "") ?? -1)"
            }
            XCTAssertEqual(markers, gestures, "\(fixture) \(options) \(average)")
            XCTAssertTrue(r.stderr.contains("\(gestures.count) gestures"), r.stderr)
            XCTAssertFalse((classes["contact"] ?? []).isEmpty)
            XCTAssertEqual(
                Set((classes["threshold"] ?? []).compactMap { $0["data-threshold"] }),
                learned ? ["peek", "pop", "maximum"] : [], "\(fixture) \(options) \(average)")
        }
    }

    func testTheConfigurationMovesTheMaximumLine() throws {
        let dir = try temporaryFolder(self)
        let conf = dir.appendingPathComponent("p.conf")
        // An average touch at raw 100 makes the top (1023) force 10.23.
        try "[fixture]\nMatchName=pressured fixture:*\nPressureAverage=100\n".write(to: conf, atomically: true, encoding: .utf8)
        let svg = dir.appendingPathComponent("c.svg")
        XCTAssertEqual(try Executables.run("pressurectl", ["plot", "Tests/Fixtures/peek-pop.evemu", "-o", svg.path, "--config", conf.path]).status, 0)
        let maximum = try XCTUnwrap(parse(svg)["threshold"]?.first { $0["data-threshold"] == "maximum" })
        XCTAssertEqual(maximum["data-force"], "10.2300")
    }

    func testErrorsAndUsage() throws {
        let dir = try temporaryFolder(self)
        let noOutput = try Executables.run("pressurectl", ["plot", "Tests/Fixtures/peek-pop.evemu"])
        XCTAssertEqual(noOutput.status, 2)
        XCTAssertTrue(noOutput.stderr.contains("-o FILE.svg"), noOutput.stderr)
        let missing = try Executables.run("pressurectl", ["plot", "/nonexistent.evemu", "-o", dir.appendingPathComponent("m.svg").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nonexistent.evemu: open: No such file or directory"), missing.stderr)
        let badSetting = try Executables.run("pressurectl", ["plot", "Tests/Fixtures/peek-pop.evemu", "-o", "x.svg", "--sensitivity", "huge"])
        XCTAssertEqual(badSetting.status, 2)
        let twoAverages = try Executables.run(
            "pressurectl", ["plot", "Tests/Fixtures/peek-pop.evemu", "-o", "x.svg", "--fresh", "--learned", "l.json"])
        XCTAssertEqual(twoAverages.status, 2)
        XCTAssertTrue(twoAverages.stderr.contains("give only one of --fresh and --learned"), twoAverages.stderr)
        let help = try Executables.run("pressurectl", ["plot", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("usage: pressurectl plot CAPTURE -o FILE.svg"), help.stdout)
    }
}
