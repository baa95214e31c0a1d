import Foundation

/// The table of the protocol's names in `docs/protocol.md` (between the `names` markers): each
/// vocabulary's names, and the gestures that take their touch. The daemon's types and the Swift client
/// are tested against it, as every other client is in its own language.
public struct ProtocolNames: Sendable {
    /// The names of each vocabulary (`gesture`, `message`, `phase`, `events`, `wants`, `request`, `error`,
    /// `reason`, `change`, `kind`, `capability`, `sensitivity`, `source`), in the table's order.
    public var vocabularies: [String: [String]] = [:]
    /// The gestures whose `takes a touch` cell says yes.
    public var takingTouch: Set<String> = []

    /// The names of `vocabulary`; empty for one the table does not have.
    public subscript(vocabulary: String) -> [String] { vocabularies[vocabulary] ?? [] }

    /// Reads the table from the checkout's `docs/protocol.md`.
    public static func load() throws -> ProtocolNames {
        let doc = try String(
            contentsOf: Executables.repoRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        return try ProtocolNames(markdown: doc)
    }

    /// The table of a document: every row between the markers, `| vocabulary | where | names | takes a
    /// touch |`, whose names are the code spans of its third cell.
    public init(markdown doc: String) throws {
        guard let start = doc.range(of: "<!-- names -->"), let end = doc.range(of: "<!-- /names -->"),
              start.upperBound < end.lowerBound
        else { throw Missing() }
        for line in doc[start.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 5, cells[1] != "vocabulary", !cells[1].hasPrefix("-") else { continue }
            let names = cells[3].split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            vocabularies[cells[1], default: []] += names
            if cells[4] == "yes" { takingTouch.formUnion(names) }
        }
        if vocabularies.isEmpty { throw Missing() }
    }

    /// `docs/protocol.md` has no table of names.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "docs/protocol.md has no table between <!-- names --> and <!-- /names -->" }
    }
}
