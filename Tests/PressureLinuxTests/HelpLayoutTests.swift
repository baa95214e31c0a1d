import Foundation
import TestSupport
import XCTest

/// Every `pressurectl` command answers `--help` on standard output with an option table people can
/// read: one option a row, its description after two spaces or more in a column shared by every row of
/// the command, continued on lines indented to that column, and never a second option on a row.
final class HelpLayoutTests: XCTestCase {
    static let helps: [[String]] = [
        ["--help"], ["devices", "--help"], ["record", "--help"], ["replay", "--help"], ["plot", "--help"],
        ["calibrate", "--help"], ["calibrate", "--reset", "--help"], ["monitor", "--help"],
        ["status", "--help"], ["reload", "--help"], ["metrics", "--help"], ["haptics", "--help"],
        ["filter", "--help"],
    ]

    func testEveryCommandsOptionTableHasOneOptionARow() throws {
        for arguments in Self.helps {
            let r = try Executables.run("pressurectl", arguments)
            let what = "pressurectl " + arguments.joined(separator: " ")
            XCTAssertEqual(r.status, 0, "\(what): \(r.stderr)")
            XCTAssertTrue(r.stdout.hasPrefix("usage: pressurectl"), "\(what) prints its usage on stdout")
            for problem in Self.layoutProblems(r.stdout) { XCTFail("\(what): \(problem)") }
        }
    }

    func testTheCheckFindsWhatIssue28Saw() {
        // The plot's help as it was: the last row of its own table ran into the shared table's first.
        let joined = """
            usage: pressurectl plot CAPTURE -o FILE.svg
              -o, --output FILE    the SVG file to write (- for standard output)  --config FILE        configuration
              --device N           which device
            """
        XCTAssertEqual(Self.layoutProblems(joined).count, 1)
        XCTAssertEqual(Self.layoutProblems("usage: x\n  --a   one\n  --bb  two\n").count, 0)
        XCTAssertEqual(Self.layoutProblems("usage: x\n  --a   one\n  --bbbb two\n").count, 1, "one space")
        XCTAssertEqual(Self.layoutProblems("usage: x\n  --a   one\n  --bbbbb  two\n").count, 1, "another column")
        XCTAssertEqual(Self.layoutProblems("usage: x\n  --a   one\n        more\n").count, 0)
        XCTAssertEqual(Self.layoutProblems("usage: x\n  --a   one\n          more\n").count, 1, "continuation")
    }

    /// What is wrong with a help text's option table; empty when nothing is.
    static func layoutProblems(_ text: String) -> [String] {
        var problems: [String] = []
        var column: Int? = nil
        var inTable = false
        for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let row = Array(line)
            let indent = row.prefix { $0 == " " }.count
            let where_ = "line \(n + 1) `\(line)`"
            if let second = secondOption(row, from: indent) {
                problems.append("\(where_): a second option at column \(second)")
                continue
            }
            if indent == 2, row.count > 2, row[2] == "-" {
                inTable = true
                // The option ends where a run of two spaces or more begins.
                guard let gap = (indent..<row.count - 1).first(where: { row[$0] == " " && row[$0 + 1] == " " }),
                      let start = (gap..<row.count).first(where: { row[$0] != " " })
                else {
                    problems.append("\(where_): the description is not two spaces or more after the option")
                    continue
                }
                if let c = column, c != start {
                    problems.append("\(where_): the description starts at column \(start), not \(c)")
                }
                column = column ?? start
            } else if inTable, indent > 2, row.count > indent, let c = column, indent != c {
                problems.append("\(where_): continued at column \(indent), not \(c)")
            } else if indent <= 2 {
                inTable = indent == 2 && row.count > 2
            }
        }
        return problems
    }

    /// Where a second option begins on a line (two spaces or more, then `-` and a letter, after text).
    static func secondOption(_ row: [Character], from start: Int) -> Int? {
        var i = start
        var spaces = 0
        var text = false
        while i < row.count {
            if row[i] == " " {
                spaces += 1
            } else {
                if text, spaces >= 2, row[i] == "-", i + 2 < row.count, row[i + 1] == "-" || row[i + 1].isLetter,
                   row[i + 1].isLetter || row[i + 2].isLetter {
                    return i
                }
                text = true
                spaces = 0
            }
            i += 1
        }
        return nil
    }
}
