import DeviceTestSupport
import Foundation
import XCTest
@testable import PressureCore

/// The transition table in `docs/gestures.md` is the one statement of `PeekPopDetector`'s behaviour: this
/// reads it and holds the detector to it. Every state the detector reaches from a touch-down is driven with
/// a grid of inputs (pressures either side of peek and pop, moves either side of the slop and of the quick
/// actions travel, timeouts either side of the deadline, lift, cancel); each outcome must be the one the
/// first row that applies to it (state, input, condition) names, every outcome needs such a row, and every
/// row must be the one that applies to some input.
final class GestureTableDocTests: XCTestCase {
    /// Peek at raw 200, pop at raw 750, slop 10 units, quick actions after 100 units up, 500 ms hold.
    let t = GestureThresholds(
        peekRaw: 200, popRaw: 750, slopX: 10, slopY: 10, quickActionsTravel: 100,
        longPressDuration: .milliseconds(500), peekForce: 1.33, popForce: 5)

    /// One row of the table, as written.
    struct Row {
        var line: Int
        var state: String
        var inputs: Set<String>
        var condition: String
        var next: String
        var actions: String
    }

    /// What a transition does, as the table's `actions` column says it.
    struct Outcome: Equatable, CustomStringConvertible {
        var gestures: [GestureKind] = []
        var cancelsTimer = false
        var impossible = false

        var description: String {
            var parts = gestures.map(\.rawValue)
            if cancelsTimer { parts.append("cancel timer") }
            if impossible { parts.append("impossible") }
            return parts.isEmpty ? "—" : parts.joined(separator: ", ")
        }
    }

    /// The table's rows: the lines after the `| state | input |` header and its rule, up to the first line
    /// that is not a table line.
    func rows() throws -> [Row] {
        let doc = try String(
            contentsOf: FixtureFiles.repoRoot.appendingPathComponent("docs/gestures.md"), encoding: .utf8)
        let lines = doc.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = try XCTUnwrap(
            lines.firstIndex { cells($0).starts(with: ["state", "input", "condition", "next", "actions"]) },
            "docs/gestures.md has no `| state | input | condition | next | actions |` table")
        var rows: [Row] = []
        for i in (header + 2)..<lines.count {
            guard lines[i].hasPrefix("|") else { break }
            let c = cells(lines[i])
            guard c.count == 5 else {
                XCTFail("docs/gestures.md:\(i + 1): \(c.count) cells, not 5")
                continue
            }
            let inputs = Set(c[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            rows.append(Row(
                line: i + 1, state: c[0], inputs: inputs == ["any"] ? Self.inputKinds : inputs, condition: c[2],
                next: c[3], actions: c[4]))
        }
        return rows
    }

    /// A table line's cells, trimmed, without their backticks.
    func cells(_ line: String) -> [String] {
        line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces) }
    }

    static let inputKinds: Set<String> = ["frame", "timeout", "lift", "cancel"]

    /// The `actions` cell read: gestures in order, `cancel timer`, `—` for nothing, and a parenthesis that
    /// says `impossible` for an input the state cannot get (any other parenthesis is a remark).
    func outcome(_ row: Row) -> Outcome? {
        var o = Outcome()
        var text = row.actions
        if let open = text.firstIndex(of: "(") {
            o.impossible = text[open...].contains("impossible")
            text = String(text[..<open])
        }
        for part in text.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let word = part.trimmingCharacters(in: .whitespaces)
            if word == "cancel timer" {
                o.cancelsTimer = true
            } else if let g = GestureKind(rawValue: word) {
                o.gestures.append(g)
            } else if word != "—" {
                XCTFail("docs/gestures.md:\(row.line): unknown action `\(word)`")
                return nil
            }
        }
        return o
    }

    /// Whether `row`'s condition holds for `input` in `state`; nil for a condition this test cannot read.
    func holds(_ row: Row, _ state: PeekPopDetector.State, _ input: PeekPopDetector.Input) -> Bool? {
        switch (row.condition, input) {
        case ("", _), ("otherwise", _):
            return true
        case ("pressure ≥ pop", .frame(_, _, _, let p)):
            return p >= t.popRaw
        case ("pressure ≥ peek", .frame(_, _, _, let p)):
            return p >= t.peekRaw
        case ("moved beyond slop", .frame(_, let x, let y, _)):
            guard case .possible(let ox, let oy, _) = state else { return nil }
            let dx = Double(x - ox) / t.slopX, dy = Double(y - oy) / t.slopY
            return dx * dx + dy * dy > 1
        case ("moved up ≥ quick travel", .frame(_, _, let y, _)):
            guard case .peeking(let oy) = state else { return nil }
            return oy - y >= t.quickActionsTravel
        case ("at or past the deadline", .timeout(let now)):
            guard case .possible(_, _, let deadline) = state else { return nil }
            return now >= deadline
        case ("before the deadline", .timeout(let now)):
            guard case .possible(_, _, let deadline) = state else { return nil }
            return now < deadline
        default:
            return nil
        }
    }

    func kind(_ input: PeekPopDetector.Input) -> String {
        switch input {
        case .frame: return "frame"
        case .timeout: return "timeout"
        case .lift: return "lift"
        case .cancel: return "cancel"
        }
    }

    func at(_ ms: Int64) -> Timestamp { Timestamp(microseconds: ms * 1000) }

    /// Pressures either side of peek and pop; positions either side of the slop (from the touch-down at
    /// 1000, 1000) and of the quick-actions travel (from a peek there or where a grid frame peeked);
    /// timeouts either side of the 500 ms deadline.
    var grid: [PeekPopDetector.Input] {
        let pressures: [Int32] = [0, 50, 199, 200, 300, 749, 750, 1000]
        let places: [(Int32, Int32)] = [
            (1000, 1000), (1006, 1006), (1008, 1008), (1011, 1000), (1000, 989), (1000, 1011), (1000, 901),
            (1000, 900), (1000, 850), (1000, 1100), (1100, 1000),
        ]
        var inputs: [PeekPopDetector.Input] = []
        for p in pressures {
            for (x, y) in places { inputs.append(.frame(time: at(30), x: x, y: y, pressure: p)) }
        }
        inputs += [0, 499, 500, 600].map { .timeout(at($0)) }
        return inputs + [.lift(at(40)), .cancel(at(40))]
    }

    func testTheDetectorFollowsTheTableInTheDocsAndTheTableCoversTheDetector() throws {
        let rows = try rows()
        XCTAssertGreaterThanOrEqual(rows.count, 20, "the table in docs/gestures.md was not found")
        let outcomes = rows.map { outcome($0) }
        var used = Set<Int>()
        var seen = Set<PeekPopDetector>()
        var queue = [PeekPopDetector(downAt: at(0), x: 1000, y: 1000, thresholds: t)]
        var failures = 0
        while let d = queue.popLast(), failures < 20 {
            guard seen.insert(d).inserted else { continue }
            for input in grid {
                var next = d
                let r = next.handle(input, thresholds: t)
                if !seen.contains(next) { queue.append(next) }
                let got = Outcome(
                    gestures: [r.first, r.second].compactMap { $0 }, cancelsTimer: r.timer == .cancel,
                    impossible: r.impossible)
                let what = "\(d.stateName) + \(input)"
                var applies: Int?
                for (i, row) in rows.enumerated() where row.state == d.stateName && row.inputs.contains(kind(input)) {
                    guard let h = holds(row, d.state, input) else {
                        XCTFail("docs/gestures.md:\(row.line): condition `\(row.condition)` unknown to this test")
                        failures += 1
                        continue
                    }
                    if h { applies = i; break }
                }
                guard let i = applies else {
                    XCTFail("\(what) → \(next.stateName), \(got): no row of docs/gestures.md says so")
                    failures += 1
                    continue
                }
                used.insert(i)
                if next.stateName != rows[i].next || outcomes[i] != got {
                    XCTFail("docs/gestures.md:\(rows[i].line) says \(rows[i].next), \(rows[i].actions); "
                        + "the detector: \(what) → \(next.stateName), \(got)")
                    failures += 1
                }
            }
        }
        XCTAssertEqual(
            Set(seen.map(\.stateName)), Set(rows.map(\.state)), "the states the detector reaches, the table's")
        for (i, row) in rows.enumerated() where !used.contains(i) {
            XCTFail("docs/gestures.md:\(row.line): no input reached this row (\(row.state), \(row.condition))")
        }
    }
}
