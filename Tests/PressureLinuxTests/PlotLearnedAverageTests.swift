import Foundation
import TestSupport
import XCTest

/// `pressurectl plot` learns the device's average touch from the capture first (issue 28): on a
/// recording too short for a fresh device to have learned, every contact still shows its force, the
/// title names the average it is measured against, and the span a fresh device would spend learning is
/// shaded. `--fresh` is the picture a freshly started daemon gives (`PlotGoldenTests`).
final class PlotLearnedAverageTests: XCTestCase {
    func plot(_ capture: String, _ options: [String] = [], in dir: URL) throws -> [String: [[String: String]]] {
        try SVGClasses.plot(capture, options, in: dir)
    }

    /// The highest force of each contact's curve, from its points and the plot's y axis (force 0 at
    /// the bottom of the plot area, y 504).
    func risesAboveZero(_ classes: [String: [[String: String]]]) -> [String: Bool] {
        var rises: [String: Bool] = [:]
        for line in classes["contact"] ?? [] {
            let ys = (line["points"] ?? "").split(separator: " ").compactMap { $0.split(separator: ",").last.flatMap { Double($0) } }
            rises[line["data-contact"] ?? "?"] = ys.contains { $0 < 503.5 }
        }
        return rises
    }

    /// The average touch the subtitle names ("average touch learned from this capture: 412 of 0..2047,
    /// 10 contacts"), and the contacts it rests on.
    func learned(_ classes: [String: [[String: String]]], range: String) -> (average: Int, contacts: Int)? {
        guard let text = classes["subtitle"]?.first?["text"] else { return nil }
        let prefix = "average touch learned from this capture: "
        guard text.hasPrefix(prefix) else { return nil }
        let rest = text.dropFirst(prefix.count).split(separator: " ")
        guard rest.count >= 4, rest[1] == "of", rest[2] == range + ",", let a = Int(rest[0]), let c = Int(rest[3]) else {
            return nil
        }
        return (a, c)
    }

    /// The plot of `capture`, learned first, whose `contacts` curves all rise above 0 under a subtitle
    /// naming the average learned on `range`.
    func learnedPlot(_ capture: String, contacts: Int, range: String, in dir: URL) throws
        -> (classes: [String: [[String: String]]], average: Int, samples: Int)
    {
        let classes = try plot(capture, in: dir)
        let rises = risesAboveZero(classes)
        XCTAssertEqual(rises.count, contacts)
        XCTAssertEqual(rises.filter(\.value).count, contacts, "every contact's curve rises above 0: \(rises)")
        let average = try XCTUnwrap(learned(classes, range: range), "\(classes["subtitle"] ?? [])")
        return (classes, average.average, average.contacts)
    }

    func testTenTapsShowForceMeasuredAgainstWhatTheyTaught() throws {
        let dir = try temporaryFolder(self)
        let capture = try PlotCaptures.tenTaps(in: dir).path
        let (classes, average, samples) = try learnedPlot(capture, contacts: 10, range: "0..2047", in: dir)
        XCTAssertEqual(samples, 10)
        // What a fresh device has learned by the end of the same capture (replay --save-learned).
        let saved = dir.appendingPathComponent("learned.json")
        XCTAssertEqual(try Executables.run("pressurectl", ["replay", capture, "--save-learned", saved.path]).status, 0)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: saved)) as? [String: Any])
        XCTAssertEqual(Int(((object["average"] as? Double) ?? 0).rounded()), average)
        XCTAssertTrue((380...440).contains(average), "\(average)")
        // A fresh device learns from the first eight: shaded until the eighth lift, at 4.7 s + 0.1 s.
        let shade = try XCTUnwrap(classes["learning"]?.first)
        XCTAssertEqual(Double(shade["data-until"] ?? ""), 4.8)
        XCTAssertEqual(classes["title"]?.first?["text"], "ten-taps.evemu: pressured plot: ten taps")

        let fresh = try plot(capture, ["--fresh"], in: dir)
        XCTAssertEqual(risesAboveZero(fresh).filter(\.value).count, 2, "a fresh device has force for the last two")
        XCTAssertNil(fresh["subtitle"])
        XCTAssertNil(fresh["learning"])
    }

    func testTheFlatFrogRecordingShowsForceForEveryContact() throws {
        let capture = try flatFrogCapture()
        let dir = try temporaryFolder(self)
        let (classes, _, samples) = try learnedPlot(capture, contacts: 17, range: "0..1024", in: dir)
        XCTAssertGreaterThan(samples, 8)
        XCTAssertNotNil(classes["learning"]?.first, "a fresh device learns until after the last contact")
        XCTAssertEqual(
            Set((classes["threshold"] ?? []).compactMap { $0["data-threshold"] }), ["peek", "pop", "maximum"])
        // Fresh, it has learned only as the recording ends: every curve flat at 0.
        XCTAssertEqual(risesAboveZero(try plot(capture, ["--fresh"], in: dir)).filter(\.value).count, 0)
    }

    func testReplayLearnsFirstOnlyWhenAsked() throws {
        let dir = try temporaryFolder(self)
        let capture = try PlotCaptures.tenTaps(in: dir).path
        let fresh = try Executables.run("pressurectl", ["replay", "--touches", capture])
        let first = try Executables.run("pressurectl", ["replay", "--touches", "--learn-first", capture])
        XCTAssertEqual(fresh.status, 0, fresh.stderr)
        XCTAssertEqual(first.status, 0, first.stderr)
        let began = { (out: String) in out.split(separator: "\n").filter { $0.contains("\"phase\":\"began\"") } }
        XCTAssertEqual(began(fresh.stdout).filter { $0.contains("\"maximumPossibleForce\":0.0") }.count, 8)
        XCTAssertEqual(began(first.stdout).filter { $0.contains("\"maximumPossibleForce\":0.0") }.count, 0)
        XCTAssertEqual(try Executables.run("pressurectl", ["replay", "--fresh", "--learn-first", capture]).status, 2)
    }
}
