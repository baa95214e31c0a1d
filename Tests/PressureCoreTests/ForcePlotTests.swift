import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import XCTest
@testable import PressureCore

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
        let device = try TouchDevice(capture.device)
        let cal = device.hasPressure ? device.pressureAxis.map { ForceCalibration.uncalibrated(axis: $0) } : nil
        var pipeline = TouchPipeline(device: device, deviceID: 1, calibration: cal, settings: settings, reportsTouches: true)
        var events: [PressureEvent] = []
        CaptureReplay.run(capture.events, through: &pipeline) { out, _ in events += out }
        let plot = ForcePlot(
            events: events, thresholds: pipeline.thresholds, maximumPossibleForce: pipeline.maximumPossibleForce,
            title: name + " <&>")
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
            // Distinct colours for distinct contacts.
            XCTAssertEqual(Set(lines.compactMap { $0["stroke"] }).count, lines.count, name)
            let gestures = events.compactMap { e -> (String, UInt64)? in
                if case .gesture(let g) = e.kind { return (g.rawValue, e.contact) } else { return nil }
            }
            let markers = Elements.withClass("gesture", in: elements)
            XCTAssertEqual(markers.map { $0["data-kind"] ?? "" }, gestures.map(\.0), name)
            XCTAssertEqual(markers.map { $0["data-contact"].flatMap(UInt64.init) ?? 0 }, gestures.map(\.1), name)
        }
    }

    func testThresholdLinesAreAtTheirForces() throws {
        let (plot, _) = try plot("peek-pop.evemu", settings: GestureSettings(sensitivity: .firm))
        let layout = plot.layout
        let elements = try Elements.parse(plot.svg())
        let thresholds = Elements.withClass("threshold", in: elements)
        var y: [String: Double] = [:]
        for t in thresholds {
            XCTAssertEqual(t["y1"], t["y2"], "horizontal")
            y[t["data-threshold"] ?? "?"] = t["y1"].flatMap(Double.init)
        }
        XCTAssertEqual(Set(y.keys), ["peek", "pop", "maximum"])
        XCTAssertEqual(try XCTUnwrap(y["peek"]), layout.y(2.0), accuracy: 0.051)
        XCTAssertEqual(try XCTUnwrap(y["pop"]), layout.y(17.0 / 3.0), accuracy: 0.051)
        XCTAssertEqual(try XCTUnwrap(y["maximum"]), layout.y(plot.maximumPossibleForce), accuracy: 0.051)
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
