import DeviceTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import PressureCapture
@testable import PressureCore
@testable import PressureDeviceTools
import XCTest

/// `ForcePlot`: a well-formed SVG with a line per contact, the thresholds where they belong and a marker
/// for every gesture replay gives.
final class ForcePlotTests: XCTestCase {
    /// The elements of an SVG document, parsed with Foundation's XML parser (which fails on anything
    /// that is not well-formed XML).
    final class Elements: NSObject, XMLParserDelegate {
        var elements: [(name: String, attributes: [String: String])] = []
        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            elements.append((name, attributes))
        }

        static func parse(_ svg: String) throws -> [(name: String, attributes: [String: String])] {
            let parser = XMLParser(data: Data(svg.utf8))
            let delegate = Elements()
            parser.delegate = delegate
            guard parser.parse() else {
                throw NSError(domain: "svg", code: 1, userInfo: [
                    NSLocalizedDescriptionKey: "not well-formed at line \(parser.lineNumber): \(String(describing: parser.parserError))",
                ])
            }
            return delegate.elements
        }

        static func withClass(_ c: String, in elements: [(name: String, attributes: [String: String])])
            -> [[String: String]]
        {
            elements.filter { $0.attributes["class"] == c }.map(\.attributes)
        }
    }

    /// A capture through the pipeline with touches, as `pressurectl plot` runs it.
    func plot(_ name: String, settings: GestureSettings = GestureSettings()) throws -> (ForcePlot, [PressureEvent]) {
        let capture = try FixtureFiles.capture(FixtureFiles.fixtures.appendingPathComponent(name))
        var pipeline = try FixtureFiles.productPipeline(capture, settings: settings, touches: true)
        let plot = ForcePlot(replaying: capture.events, through: &pipeline, title: name + " <&>")
        var replayed = try FixtureFiles.productPipeline(capture, settings: settings, touches: true)
        var events: [PressureEvent] = []
        CaptureReplay.run(capture.events, through: &replayed) { out, _ in events += out }
        return (plot, events)
    }

    func testEveryFixtureGivesWellFormedSVGWithALinePerContactAndAMarkerPerGesture() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: FixtureFiles.fixtures.path)
            .filter { $0.hasSuffix(".evemu") || $0.hasSuffix(".yml") }.sorted()
        for name in names {
            let (plot, events) = try plot(name)
            let elements = try Elements.parse(plot.svg())
            let contacts = Set(events.filter { if case .touch = $0.kind { return true } else { return false } }.map(\.contact))
            let lines = Elements.withClass("contact", in: elements)
            XCTAssertEqual(lines.count, contacts.count, name)
            XCTAssertEqual(Set(lines.compactMap { $0["data-contact"].flatMap(UInt64.init) }), contacts, name)
            XCTAssertTrue(lines.allSatisfy { $0["points"]?.contains(",") ?? false }, name)
            if lines.count <= ContactOutcome.contactsWithColoursOfTheirOwn {
                // Distinct colours for distinct contacts.
                XCTAssertEqual(Set(lines.compactMap { $0["stroke"] }).count, lines.count, name)
            } else {
                // Beyond a dozen, the colour of what each came to.
                let outcomes = Dictionary(uniqueKeysWithValues: zip(plot.series.map { "\($0.contact)" }, plot.outcomes))
                for line in lines {
                    let outcome = try XCTUnwrap(line["data-outcome"].flatMap(ContactOutcome.init(rawValue:)), name)
                    XCTAssertEqual(outcome, outcomes[line["data-contact"] ?? ""], name)
                    XCTAssertEqual(line["stroke"], outcome.colour, name)
                }
            }
            let gestures = events.compactMap { e -> (String, UInt64)? in
                if case .gesture(let g) = e.kind { return (g.rawValue, e.contact) } else { return nil }
            }
            let markers = Elements.withClass("gesture", in: elements)
            XCTAssertEqual(markers.map { $0["data-kind"] ?? "" }, gestures.map(\.0), name)
            XCTAssertEqual(markers.map { $0["data-contact"].flatMap(UInt64.init) ?? 0 }, gestures.map(\.1), name)
        }
    }

    func testThresholdLinesAreAtTheirForcesFromWhenTheDeviceHadLearned() throws {
        let (plot, events) = try plot("peek-pop.evemu", settings: GestureSettings(sensitivity: .firm))
        let layout = plot.layout
        let elements = try Elements.parse(plot.svg())
        let thresholds = Elements.withClass("threshold", in: elements)
        var y: [String: Double] = [:]
        var x: [String: (Double, Double)] = [:]
        for t in thresholds {
            XCTAssertEqual(t["y1"], t["y2"], "horizontal")
            XCTAssertEqual(t["data-span"], "1", "none while the device was learning (span 0)")
            y[t["data-threshold"] ?? "?"] = t["y1"].flatMap(Double.init)
            x[t["data-threshold"] ?? "?"] = (t["x1"].flatMap(Double.init) ?? -1, t["x2"].flatMap(Double.init) ?? -1)
        }
        XCTAssertEqual(Set(y.keys), ["peek", "pop", "maximum"])
        // What it learned from its eight ordinary taps: Firm's peek 1.7, pop 2.4 average touches.
        XCTAssertEqual(try XCTUnwrap(y["peek"]), layout.y(1.7), accuracy: 0.051)
        XCTAssertEqual(try XCTUnwrap(y["pop"]), layout.y(2.4), accuracy: 0.051)
        XCTAssertEqual(try XCTUnwrap(y["maximum"]), layout.y(plot.maximumPossibleForce), accuracy: 0.051)
        // From the end of the eighth tap (the device learned then) to the right edge.
        let eighthLift = try XCTUnwrap(events.filter { $0.contact == 8 && $0.kind == .touch(.ended) }.first)
        XCTAssertEqual(try XCTUnwrap(x["peek"]).0, layout.x(eighthLift.time), accuracy: 0.051)
        XCTAssertEqual(try XCTUnwrap(x["peek"]).1, ForcePlot.Layout.left + layout.plotWidth, accuracy: 0.051)
        // Force 0 is the bottom of the plot area, the y axis's top is above everything drawn.
        XCTAssertEqual(layout.y(0), ForcePlot.Layout.top + layout.plotHeight)
        XCTAssertGreaterThanOrEqual(layout.yMaximum, plot.maximumPossibleForce)
        XCTAssertEqual(layout.x(layout.start), ForcePlot.Layout.left)
    }

    func testADeviceWithoutPressureHasNoThresholdsButStillItsLongPresses() throws {
        let (plot, events) = try plot("no-pressure.evemu")
        XCTAssertNil(plot.peekForce)
        let elements = try Elements.parse(plot.svg())
        XCTAssertTrue(Elements.withClass("threshold", in: elements).isEmpty)
        let longPresses = events.filter { $0.kind == .gesture(.longPress) }.count
        XCTAssertGreaterThan(longPresses, 0)
        XCTAssertEqual(Elements.withClass("gesture", in: elements).count, longPresses)
    }

    func testTheTitleIsEscapedAndAnEmptyPlotIsStillADocument() throws {
        let (plot, _) = try plot("peek-pop.evemu")
        XCTAssertTrue(plot.svg().contains("peek-pop.evemu &lt;&amp;&gt;"))
        let off = GestureThresholds(
            peekRaw: .max, popRaw: .max, slopX: 1, slopY: 1, quickActionsTravel: 1,
            longPressDuration: .milliseconds(500), peekForce: 1, popForce: 2)
        let empty = ForcePlot(events: [], thresholds: off, maximumPossibleForce: 0, title: "empty")
        let elements = try Elements.parse(empty.svg())
        XCTAssertTrue(Elements.withClass("contact", in: elements).isEmpty)
    }

    func testTickStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        XCTAssertEqual(ForcePlot.Layout.niceStep(0.13), 0.2)
        XCTAssertEqual(ForcePlot.Layout.niceStep(1.1), 2)
        XCTAssertEqual(ForcePlot.Layout.niceStep(3), 5)
        XCTAssertEqual(ForcePlot.Layout.niceStep(7), 10)
        XCTAssertEqual(ForcePlot.Layout.niceStep(0.0009), 0.001, accuracy: 1e-12)
    }
}
