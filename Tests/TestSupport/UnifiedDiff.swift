/// A unified diff of two lists of lines (`diff -u`'s format: `---`/`+++` headers, `@@ -a,b +c,d @@` hunks
/// with three lines of context), so a golden comparison shows every difference at once and a reviewer
/// reads it as any patch. Written here, without running `diff`, so tests need no outside program.
public enum UnifiedDiff {
    /// A text's lines without the newline that ends the last (a file's lines as `diff` counts them).
    public static func lines(of text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }

    /// One line of the edit script that turns the old lines into the new.
    enum Edit: Equatable {
        case same(old: Int, new: Int)
        case delete(old: Int)
        case insert(new: Int)
    }

    /// Beyond this many changed lines the script is no longer searched for (Myers' cost grows with the
    /// square of it): everything between the common head and tail shows as removed, then added.
    static let maximumEdits = 2000

    /// The diff, empty when the lists are equal.
    public static func text(old: [String], new: [String], oldName: String, newName: String, context: Int = 3) -> String {
        let script = edits(old, new)
        guard script.contains(where: { if case .same = $0 { false } else { true } }) else { return "" }
        var out = ["--- \(oldName)", "+++ \(newName)"]
        for hunk in hunks(script, context: context) {
            out.append(header(hunk, script))
            for e in script[hunk] {
                switch e {
                case .same(let o, _): out.append(" " + old[o])
                case .delete(let o): out.append("-" + old[o])
                case .insert(let n): out.append("+" + new[n])
                }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The shortest edit script (Myers' greedy algorithm) after the common head and tail are set aside.
    static func edits(_ a: [String], _ b: [String]) -> [Edit] {
        var head = 0
        while head < a.count, head < b.count, a[head] == b[head] { head += 1 }
        var tail = 0
        while tail < a.count - head, tail < b.count - head, a[a.count - 1 - tail] == b[b.count - 1 - tail] { tail += 1 }
        let n = a.count - head - tail, m = b.count - head - tail
        var middle = middleEdits(n, m, maximum: maximumEdits) { a[head + $0] == b[head + $1] }
            ?? (0..<n).map { .delete(old: $0) } + (0..<m).map { .insert(new: $0) }
        middle = middle.map {
            switch $0 {
            case .same(let o, let n): .same(old: o + head, new: n + head)
            case .delete(let o): .delete(old: o + head)
            case .insert(let n): .insert(new: n + head)
            }
        }
        return (0..<head).map { .same(old: $0, new: $0) } + middle
            + (0..<tail).map { .same(old: a.count - tail + $0, new: b.count - tail + $0) }
    }

    /// Myers over `n` old and `m` new lines; nil when more than `maximum` lines differ. Each round `d`
    /// keeps the furthest x on every diagonal k = x - y in -d...d; the rounds are kept to walk back.
    static func middleEdits(_ n: Int, _ m: Int, maximum: Int, equal: (Int, Int) -> Bool) -> [Edit]? {
        let limit = min(n + m, maximum)
        let offset = limit + 1
        var v = [Int](repeating: 0, count: 2 * limit + 3)
        var trace: [[Int]] = []
        var found: Int? = nil
        search: for d in 0...limit {
            trace.append(Array(v[(offset - d)...(offset + d)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x = k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1
                var y = x - k
                while x < n, y < m, equal(x, y) {
                    x += 1
                    y += 1
                }
                v[offset + k] = x
                if x >= n, y >= m {
                    found = d
                    break search
                }
            }
        }
        guard let depth = found else { return nil }
        var script: [Edit] = []
        var x = n, y = m
        for d in stride(from: depth, to: 0, by: -1) {
            // trace[d] holds round d - 1's diagonals -(d-1)...(d-1), stored from index 0 for diagonal -d.
            let before = trace[d]
            func at(_ k: Int) -> Int { before[k + d] }
            let k = x - y
            let down = k == -d || (k != d && at(k - 1) < at(k + 1))
            let previousK = down ? k + 1 : k - 1
            let previousX = at(previousK), previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1
                y -= 1
                script.append(.same(old: x, new: y))
            }
            if down { script.append(.insert(new: previousY)) } else { script.append(.delete(old: previousX)) }
            x = previousX
            y = previousY
        }
        while x > 0, y > 0 {
            x -= 1
            y -= 1
            script.append(.same(old: x, new: y))
        }
        return script.reversed()
    }

    /// The ranges of the script each hunk shows: its changes with `context` unchanged lines around them,
    /// hunks whose context would touch merged into one.
    static func hunks(_ script: [Edit], context: Int) -> [Range<Int>] {
        let changes = script.indices.filter { if case .same = script[$0] { false } else { true } }
        var result: [Range<Int>] = []
        for i in changes {
            let lower = max(0, i - context), upper = min(script.count, i + 1 + context)
            if let last = result.last, lower <= last.upperBound {
                result[result.count - 1] = last.lowerBound..<upper
            } else {
                result.append(lower..<upper)
            }
        }
        return result
    }

    /// `@@ -start,count +start,count @@`: 1-based starts, a count of 1 left out, an empty side starting at
    /// the line before it (as `diff -u` writes them).
    static func header(_ hunk: Range<Int>, _ script: [Edit]) -> String {
        var oldLines: [Int] = [], newLines: [Int] = []
        for e in script[hunk] {
            switch e {
            case .same(let o, let n):
                oldLines.append(o)
                newLines.append(n)
            case .delete(let o): oldLines.append(o)
            case .insert(let n): newLines.append(n)
            }
        }
        // Where an empty side stands: after the lines of that side that come before the hunk.
        func before(_ pick: (Edit) -> Int?) -> Int { script[..<hunk.lowerBound].compactMap(pick).count }
        func range(_ lines: [Int], _ start: Int) -> String {
            lines.isEmpty ? "\(start),0" : lines.count == 1 ? "\(lines[0] + 1)" : "\(lines[0] + 1),\(lines.count)"
        }
        let oldStart = before { if case .insert = $0 { nil } else { 1 } }
        let newStart = before { if case .delete = $0 { nil } else { 1 } }
        return "@@ -\(range(oldLines, oldStart)) +\(range(newLines, newStart)) @@"
    }
}
