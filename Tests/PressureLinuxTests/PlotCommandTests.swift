import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import XCTest

/// `pressurectl plot` end to end: the SVG it writes parses as XML and marks exactly the gestures
/// `pressurectl replay` prints for the same capture and settings.
final class PlotCommandTests: XCTestCase {
    /// Class attribute → the attributes of each element with that class.
    final class Classes: NSObject, XMLParserDelegate {
        var byClass: [String: [[String: String]]] = [:]
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if let c = attributes["class"] { byClass[c, default: []].append(attributes) }
        }
    }

    func parse(_ url: URL) throws -> [String: [[String: String]]] {
        let parser = try XCTUnwrap(XMLParser(contentsOf: url))
        let classes = Classes()
        parser.delegate = classes
        XCTAssertTrue(parser.parse(), "well-formed: \(String(describing: parser.parserError))")
        return classes.byClass
    }

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
        for (i, (fixture, options, learned)) in cases.enumerated() {
            let svg = dir.appendingPathComponent("\(i).svg")
            let r = try Executables.run("pressurectl", ["plot", "Tests/Fixtures/\(fixture)", "-o", svg.path] + options)
            XCTAssertEqual(r.status, 0, r.stderr)
            let replay = try Executables.run("pressurectl", ["replay", "Tests/Fixtures/\(fixture)"] + options)
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
            XCTAssertEqual(markers, gestures, "\(fixture) \(options)")
            XCTAssertTrue(r.stderr.contains("\(gestures.count) gestures"), r.stderr)
            XCTAssertFalse((classes["contact"] ?? []).isEmpty)
            XCTAssertEqual(
                Set((classes["threshold"] ?? []).compactMap { $0["data-threshold"] }),
                learned ? ["peek", "pop", "maximum"] : [], "\(fixture) \(options)")
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
        let help = try Executables.run("pressurectl", ["plot", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("usage: pressurectl plot CAPTURE -o FILE.svg"), help.stdout)
    }
}
