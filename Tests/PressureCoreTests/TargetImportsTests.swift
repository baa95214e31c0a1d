import DeviceTestSupport
import Foundation
import XCTest

/// The dependency direction is what docs/architecture.md says: its table of what each target may import
/// is read, and so is every `import` line under `Sources/` and `Benchmarks/`; an import the table does not
/// allow, or a target it does not list, fails, naming the file and line.
final class TargetImportsTests: XCTestCase {
    /// The table between the `imports` markers: target → the modules it may import.
    func allowed() throws -> [String: Set<String>] {
        let doc = try String(
            contentsOf: FixtureFiles.repoRoot.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        guard let start = doc.range(of: "<!-- imports -->"), let end = doc.range(of: "<!-- /imports -->") else {
            XCTFail("docs/architecture.md has no imports table")
            return [:]
        }
        var table: [String: Set<String>] = [:]
        for line in doc[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count >= 3, !cells[1].isEmpty, cells[1] != "target", !cells[1].hasPrefix("-") else { continue }
            table[cells[1]] = Set(cells[2].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        return table
    }

    /// Every Swift file of each target folder: `Sources/<target>` and `Benchmarks/<target>`.
    func targets() throws -> [(name: String, files: [URL])] {
        let fm = FileManager.default
        var out: [(String, [URL])] = []
        for parent in ["Sources", "Benchmarks"] {
            let dir = FixtureFiles.repoRoot.appendingPathComponent(parent)
            for name in try fm.contentsOfDirectory(atPath: dir.path).sorted() {
                let folder = dir.appendingPathComponent(name)
                let files = (fm.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? [])
                    .filter { $0.hasSuffix(".swift") }.map { folder.appendingPathComponent($0) }
                if !files.isEmpty { out.append((name, files)) }
            }
        }
        return out
    }

    /// The module each `import` line of `text` names, with its line number (`@_exported`, `@testable`
    /// and `import struct M.T` forms included).
    static func imports(in text: String) -> [(line: Int, module: String)] {
        var out: [(Int, String)] = []
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var words = line.split(separator: " ").map(String.init)
            while let first = words.first, first.hasPrefix("@") || first == "public" || first == "package" {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            let name = words.count >= 3 && ["struct", "enum", "class", "func", "protocol", "typealias"].contains(words[1])
                ? words[2] : words[1]
            out.append((i + 1, String(name.split(separator: ".").first ?? "")))
        }
        return out
    }

    func testEveryImportIsOneTheArchitectureAllows() throws {
        let table = try allowed()
        let found = try targets()
        XCTAssertGreaterThan(found.count, 10, "the targets were not found")
        for (target, files) in found {
            guard let may = table[target] else {
                XCTFail("target \(target) is not in docs/architecture.md's imports table")
                continue
            }
            for file in files {
                let text = try String(contentsOf: file, encoding: .utf8)
                for (line, module) in Self.imports(in: text) where !may.contains(module) {
                    XCTFail("\(file.path):\(line): \(target) imports \(module), which docs/architecture.md does not allow")
                }
            }
        }
    }

    func testTheReaderSeesEveryFormOfImport() {
        let got = Self.imports(in: "import A\n@_exported import B\n@testable import C\nimport struct D.E\n// import F\n")
        XCTAssertEqual(got.map(\.module), ["A", "B", "C", "D"])
        XCTAssertEqual(got.map(\.line), [1, 2, 3, 4])
    }
}
