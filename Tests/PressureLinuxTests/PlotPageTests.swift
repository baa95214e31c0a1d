import Foundation
import TestSupport
import XCTest

/// `pressurectl plot -o FILE.html`: the same SVG in a page that needs nothing outside itself, whose
/// script names the curve under the pointer: its contact, its force there and its gestures.
final class PlotPageTests: XCTestCase {
    func write(_ capture: String, _ name: String, in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent(name)
        let r = try Executables.run("pressurectl", ["plot", capture, "-o", url.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        return url
    }

    /// The page's JSON: contact → its entry.
    static func data(_ page: String) throws -> [String: [String: Any]] {
        let open = #"<script type="application/json" id="plot-data">"#
        let start = try XCTUnwrap(page.range(of: open)?.upperBound)
        let end = try XCTUnwrap(page.range(of: "</script>", range: start..<page.endIndex)?.lowerBound)
        let object = try JSONSerialization.jsonObject(with: Data(page[start..<end].utf8)) as? [String: Any]
        let contacts = try XCTUnwrap(object?["contacts"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: contacts.map { ("\($0["contact"] ?? "")", $0) })
    }

    static func peak(_ c: [String: Any]) -> Double { (c["forces"] as? [Double])?.max() ?? 0 }

    /// The hardest press: its peak stands above every other curve, so it alone is under the pointer there.
    static func hardestPress(_ contacts: [String: [String: Any]]) -> (String, [String: Any])? {
        contacts.max { peak($0.value) < peak($1.value) }.map { ($0.key, $0.value) }
    }

    func testThePageHoldsTheSameSVGAndNothingFromOutside() throws {
        let dir = try temporaryFolder(self)
        let capture = try PlotCaptures.session(in: dir).path
        let page = try String(contentsOf: write(capture, "p.html", in: dir), encoding: .utf8)
        let svg = try String(contentsOf: write(capture, "p.svg", in: dir), encoding: .utf8)
        let inline = svg.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).last.map(String.init) ?? ""
        XCTAssertTrue(inline.hasPrefix("<svg "))
        XCTAssertTrue(page.contains(inline), "the SVG, whole, in the page")
        XCTAssertTrue(page.hasPrefix("<!DOCTYPE html>"))
        for outside in ["src=", "<link", "href=", "@import", "url("] {
            XCTAssertFalse(page.contains(outside), "nothing fetched: \(outside)")
        }
        let classes = try SVGClasses.parse(Data(svg.utf8))
        let contacts = try Self.data(page)
        XCTAssertEqual(contacts.count, 200)
        for line in classes["contact"] ?? [] {
            let entry = try XCTUnwrap(contacts[line["data-contact"] ?? ""])
            let points = (line["points"] ?? "").split(separator: " ").count
            // A contact of one frame is drawn as a dot: its one point twice.
            let forces = (entry["forces"] as? [Double])?.count ?? 0
            XCTAssertEqual(points, forces == 1 ? 2 : forces)
            XCTAssertEqual(entry["outcome"] as? String, line["data-outcome"])
        }
    }

    func testPointingAtACurveNamesItsContactForceAndGestures() throws {
        let chromium = "/usr/bin/chromium"
        guard FileManager.default.isExecutableFile(atPath: chromium) else { throw XCTSkip("no Chromium (tools/setup-debian --browser)") }
        let dir = try temporaryFolder(self)
        let capture = try PlotCaptures.session(in: dir).path
        let url = try write(capture, "p.html", in: dir)
        let contacts = try Self.data(try String(contentsOf: url, encoding: .utf8))
        let (contact, entry) = try XCTUnwrap(Self.hardestPress(contacts))
        let peak = Self.peak(_:)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: chromium)
        p.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--window-size=1000,700", "--dump-dom",
                       url.absoluteString + "#contact=\(contact)"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let dom = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let gestures = (entry["gestures"] as? [String] ?? []).joined(separator: ", ")
        let expected = "contact \(contact): force \(String(format: "%.2f", peak(entry))) at "
        XCTAssertTrue(dom.contains(expected), "\(expected) in \(dom.suffix(2000))")
        XCTAssertTrue(dom.contains("; \(gestures) (popped)</p>"), "\(gestures): \(dom.suffix(2000))")
        XCTAssertTrue(dom.contains(#"class="contact hovered" data-contact="\#(contact)""#), "its curve is highlighted")
    }
}
