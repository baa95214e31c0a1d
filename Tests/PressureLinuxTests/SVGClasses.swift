import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import XCTest

/// A plot's elements by their class attribute, read with Foundation's XML parser (which fails on
/// anything that is not well-formed): each element's attributes, and its text under the key "text".
final class SVGClasses: NSObject, XMLParserDelegate {
    var byClass: [String: [[String: String]]] = [:]
    /// For each element open, where its attributes sit in `byClass` (nil: it has no class).
    private var open: [(String, Int)?] = []

    struct NotWellFormed: Error, CustomStringConvertible {
        var description: String
    }

    /// `pressurectl plot CAPTURE -o DIR/….svg OPTIONS`, its status checked, parsed.
    static func plot(_ capture: String, _ options: [String] = [], in dir: URL,
                     file: StaticString = #filePath, line: UInt = #line) throws -> [String: [[String: String]]] {
        let svg = dir.appendingPathComponent("\(UUID().uuidString.prefix(6)).svg")
        let r = try Executables.run("pressurectl", ["plot", capture, "-o", svg.path] + options)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try parse(svg)
    }

    /// Class → the attributes of each element with that class, in document order.
    static func parse(_ url: URL) throws -> [String: [[String: String]]] {
        try parse(Data(contentsOf: url))
    }

    static func parse(_ data: Data) throws -> [String: [[String: String]]] {
        let parser = XMLParser(data: data)
        let classes = SVGClasses()
        parser.delegate = classes
        guard parser.parse() else {
            throw NotWellFormed(description: "line \(parser.lineNumber): \(String(describing: parser.parserError))")
        }
        return classes.byClass
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard let c = attributes["class"] else {
            open.append(nil)
            return
        }
        byClass[c, default: []].append(attributes)
        open.append((c, (byClass[c]?.count ?? 1) - 1))
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        _ = open.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        // The text belongs to the innermost element with a class (a label inside its group).
        guard let found = open.last(where: { $0 != nil }) ?? nil else { return }
        byClass[found.0]?[found.1]["text", default: ""] += string
    }
}
