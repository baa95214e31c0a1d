import Foundation
import TestSupport
import XCTest

/// A plot of many contacts people can read (issue 28): beyond a dozen contacts coloured by what each
/// came to, with a legend of the five outcomes and of every gesture counted; no gesture label over
/// another (every marker kept); thresholds that move drawn as steps.
final class PlotReadabilityTests: XCTestCase {
    func plot(_ capture: String, _ options: [String] = [], in dir: URL) throws -> [String: [[String: String]]] {
        try SVGClasses.plot(capture, options, in: dir)
    }

    func testTwoHundredContactsHaveALegendOfTheFiveOutcomes() throws {
        let dir = try temporaryFolder(self)
        let capture = try PlotCaptures.session(in: dir).path
        let classes = try plot(capture, in: dir)
        let outcomes = classes["outcome"] ?? []
        XCTAssertEqual(outcomes.compactMap { $0["data-outcome"] }, ["ordinary", "peeked", "popped", "longPress", "palm"])
        XCTAssertEqual(outcomes.compactMap { $0["text"] }.map { $0.split(separator: " ").dropLast().joined(separator: " ") },
                       ["ordinary", "peeked", "popped", "long press", "palm"])
        let counts = outcomes.compactMap { $0["data-count"].flatMap(Int.init) }
        XCTAssertEqual(counts.reduce(0, +), 200)
        // The session's script: 13, 2, 2, 2 and 1 of every 20.
        XCTAssertEqual(counts, [130, 20, 20, 20, 10])
        let lines = classes["contact"] ?? []
        XCTAssertEqual(lines.count, 200)
        XCTAssertEqual(Set(lines.compactMap { $0["stroke"] }).count, 5, "one colour an outcome, not a contact")
        XCTAssertFalse((classes["legend"]?.first?["text"] ?? "").contains("contact 1"), "no row a contact")
    }

    func testLabelsThatWouldOverlapAreLeftOutButEveryMarkerStays() throws {
        let dir = try temporaryFolder(self)
        let capture = try PlotCaptures.session(in: dir).path
        let classes = try plot(capture, in: dir)
        let replay = try Executables.run("pressurectl", ["replay", "--learn-first", capture])
        let gestures = replay.stdout.split(separator: "\n").filter { !$0.hasPrefix("{\"type\":\"device\"") }
        let markers = classes["gesture"] ?? []
        XCTAssertEqual(markers.count, gestures.count)
        let labelled = markers.filter { $0["text"] != nil }
        XCTAssertGreaterThan(labelled.count, 0)
        XCTAssertLessThan(labelled.count, markers.count, "a session this dense has labels to leave out")
        // The legend counts every gesture instead.
        let legend = classes["legend"]?.first?["text"] ?? ""
        XCTAssertTrue(legend.contains("peek 40"), legend)
        XCTAssertTrue(legend.contains("pop 20"), legend)
        XCTAssertTrue(legend.contains("longPress 20"), legend)
    }

    func testThresholdsThatMoveAreDrawnAsSteps() throws {
        let dir = try temporaryFolder(self)
        let capture = try PlotCaptures.session(in: dir).path
        let classes = try plot(capture, ["--fresh"], in: dir)
        let spans = (classes["threshold"] ?? []).filter { $0["data-threshold"] == "maximum" }
        let steps = classes["threshold-step"] ?? []
        XCTAssertGreaterThan(steps.count, 0, "a fresh device's maximum moves as it learns")
        for step in steps {
            // From the end of the span before, at its force, to the next span's force, where it begins.
            let span = try XCTUnwrap(step["data-span"].flatMap(Int.init))
            let before = try XCTUnwrap(spans.first { $0["data-span"] == "\(span - 1)" })
            let after = try XCTUnwrap(spans.first { $0["data-span"] == "\(span)" })
            XCTAssertEqual(step["x1"], step["x2"])
            XCTAssertEqual(step["x1"], before["x2"])
            XCTAssertEqual(step["x2"], after["x1"])
            XCTAssertEqual(step["y1"], before["y1"])
            XCTAssertEqual(step["y2"], after["y1"])
        }
    }
}
