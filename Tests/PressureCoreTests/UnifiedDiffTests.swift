@testable import TestSupport
import XCTest

/// The golden comparisons' diff: the hunks `diff -u` prints for the same lines (checked against GNU diff
/// when written), and a script that always turns the old lines into the new.
final class UnifiedDiffTests: XCTestCase {
    func diff(_ old: [String], _ new: [String]) -> String {
        UnifiedDiff.text(old: old, new: new, oldName: "old", newName: "new")
    }

    func testEqualListsHaveNoDiff() {
        XCTAssertEqual(diff([], []), "")
        XCTAssertEqual(diff(["a", "b"], ["a", "b"]), "")
    }

    func testChangesFarApartAreHunksOfTheirOwnWithThreeLinesOfContext() {
        let old = "a b c d e f g h i j k l m".split(separator: " ").map(String.init)
        let new = "a b C d e f g h i j l m n".split(separator: " ").map(String.init)
        XCTAssertEqual(diff(old, new), """
            --- old
            +++ new
            @@ -1,6 +1,6 @@
             a
             b
            -c
            +C
             d
             e
             f
            @@ -8,6 +8,6 @@
             h
             i
             j
            -k
             l
             m
            +n

            """)
    }

    func testAnEmptySideStartsAtTheLineBeforeIt() {
        XCTAssertEqual(diff([], ["x", "y"]), "--- old\n+++ new\n@@ -0,0 +1,2 @@\n+x\n+y\n")
        XCTAssertEqual(diff(["x", "y"], []), "--- old\n+++ new\n@@ -1,2 +0,0 @@\n-x\n-y\n")
        XCTAssertEqual(diff(["a"], ["b"]), "--- old\n+++ new\n@@ -1 +1 @@\n-a\n+b\n")
        XCTAssertEqual(
            diff(["a", "b", "c", "d", "e"], ["a", "b", "c", "X", "d", "e"]),
            "--- old\n+++ new\n@@ -1,5 +1,6 @@\n a\n b\n c\n+X\n d\n e\n")
    }

    /// Applying the script to the old lines gives the new ones, for lists that differ a little and a lot,
    /// and for lists past the search limit (shown as everything between head and tail replaced).
    func testTheScriptTurnsTheOldLinesIntoTheNew() {
        var rng = SplitMix64(state: 7)
        func list(_ n: Int) -> [String] { (0..<n).map { _ in ["a", "b", "c", "d"][Int(rng.next() % 4)] } }
        var cases: [([String], [String])] = (0..<200).map { _ in (list(Int(rng.next() % 30)), list(Int(rng.next() % 30))) }
        let long = (0..<3000).map { "line \($0)" }
        cases.append((long, long.map { $0 + "!" }))
        cases.append((["same"] + long + ["end"], ["same"] + long.reversed() + ["end"]))
        for (old, new) in cases {
            var rebuilt: [String] = []
            var changed = 0
            for e in UnifiedDiff.edits(old, new) {
                switch e {
                case .same(let o, let n):
                    XCTAssertEqual(old[o], new[n])
                    rebuilt.append(old[o])
                case .delete: changed += 1
                case .insert(let n):
                    changed += 1
                    rebuilt.append(new[n])
                }
            }
            XCTAssertEqual(rebuilt, new)
            XCTAssertGreaterThanOrEqual(changed, abs(old.count - new.count))
        }
        let replaced = diff(["same"] + long + ["end"], ["same"] + long.reversed() + ["end"])
        XCTAssertTrue(replaced.hasPrefix("--- old\n+++ new\n@@ -1,3002 +1,3002 @@\n same\n-line 0\n"), String(replaced.prefix(80)))
    }
}
