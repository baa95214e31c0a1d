import Foundation
import TestSupport
import XCTest
@testable import PressureProtocol

/// Every JSON example in `docs/protocol.md` is what it says: a request the daemon parses, or a line the
/// daemon sends, written exactly as its own encoder writes it (key order, six-decimal times, four-decimal
/// forces), so the document cannot drift from the code.
final class ProtocolDocExamplesTests: XCTestCase {
    /// The lines of every ```json block, with the line number each stands on.
    func examples() throws -> [(line: Int, text: String)] {
        let doc = try String(contentsOf: Executables.repoRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        var out: [(Int, String)] = []
        var inBlock = false
        for (i, line) in doc.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                inBlock = line == "```json"
            } else if inBlock, !line.isEmpty {
                out.append((i + 1, String(line)))
            }
        }
        return out
    }

    /// How the daemon writes the line `text` stands for, or why it cannot stand for one.
    func reencoded(_ text: String) throws -> String {
        let json = try JSONParser.parse(text)
        // A reply names its request too: only a line without a `type` is a request.
        if json["request"] != nil, json["type"] == nil {
            let parsed = try ClientRequest.parse(line: text).get()
            // A client may write a request its own way: what counts is what it means.
            XCTAssertEqual(try ClientRequest.parse(line: parsed.request.line(id: parsed.id)).get().request, parsed.request)
            return text
        }
        let type = try XCTUnwrap(json["type"]?.stringValue)
        guard type == "touch" || GestureKind(rawValue: type) != nil else { return try ServerMessage(json: json).line }
        let event = try PressureEvent(json: json)
        var out: [UInt8] = []
        if let tags = try RegionTags(json: json) {
            ServerMessage.appendRouted(event, region: tags.region, app: tags.app, items: tags.items, to: &out)
        } else {
            WireFormat.append(event, to: &out)
        }
        return String(decoding: out.dropLast(), as: UTF8.self)
    }

    func testEveryExampleIsWhatTheDaemonParsesOrSends() throws {
        let all = try examples()
        XCTAssertGreaterThanOrEqual(all.count, 10, "the examples were not found")
        var kinds: Set<String> = []
        for (line, text) in all {
            do {
                XCTAssertEqual(try reencoded(text), text, "docs/protocol.md:\(line)")
                let json = try JSONParser.parse(text)
                kinds.insert(json["type"]?.stringValue ?? "request " + (json["request"]?.stringValue ?? "?"))
            } catch {
                XCTFail("docs/protocol.md:\(line): \(error)\n  \(text)")
            }
        }
        // The ones a reader learns the session from are there.
        for kind in ["hello", "reply", "peek", "pop", "touch", "quickActions", "request subscribe", "request setRegion"] {
            XCTAssertTrue(kinds.contains(kind), "no example of \(kind)")
        }
    }
}
