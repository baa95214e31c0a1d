/// A line-by-line reading of OpenMetrics text, for the tests of `pressurectl metrics`: every sample's
/// family declared (`# TYPE`) before it, no blank line, no family twice, every histogram's buckets
/// cumulative with `le` ascending to `+Inf`, which equals `_count`, and `# EOF` last. What it finds wrong
/// comes back as sentences, with the line number.
struct OpenMetricsCheck {
    struct Sample {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    private(set) var problems: [String] = []
    private(set) var types: [String: String] = [:]
    private(set) var samples: [Sample] = []

    init(_ text: String) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() } else { problems.append("the text does not end with a newline") }
        if lines.last != "# EOF" { problems.append("the last line is not # EOF") }
        var seenEOF = false
        for (i, line) in lines.enumerated() {
            let at = "line \(i + 1)"
            if seenEOF { problems.append("\(at): after # EOF") }
            if line.isEmpty {
                problems.append("\(at): blank")
            } else if line == "# EOF" {
                seenEOF = true
            } else if line.hasPrefix("# ") {
                let words = line.split(separator: " ", maxSplits: 3).map(String.init)
                guard words.count >= 3, ["TYPE", "HELP", "UNIT"].contains(words[1]) else {
                    problems.append("\(at): not TYPE, HELP or UNIT: \(line)")
                    continue
                }
                if words[1] == "TYPE" {
                    if types[words[2]] != nil { problems.append("\(at): \(words[2]) declared twice") }
                    types[words[2]] = words.count > 3 ? words[3] : ""
                } else if types[words[2]] == nil {
                    problems.append("\(at): \(words[1]) of \(words[2]) before its TYPE")
                }
                if words[1] == "UNIT", words.count > 3, !words[2].hasSuffix("_" + words[3]) {
                    problems.append("\(at): \(words[2]) does not end with its unit")
                }
            } else if let s = Self.sample(line) {
                if family(of: s.name) == nil { problems.append("\(at): \(s.name) has no TYPE before it") }
                samples.append(s)
            } else {
                problems.append("\(at): not a sample: \(line)")
            }
        }
        checkHistograms()
    }

    /// The family a sample belongs to: its own name, or a histogram's for `_bucket`, `_sum`, `_count`.
    func family(of name: String) -> String? {
        if types[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return nil
    }

    /// `name{a="x",b="y"} 12.5` (label values without escapes in what these tests write, but `\"`).
    static func sample(_ line: String) -> Sample? {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { return nil }
        let head = line[..<space]
        guard let brace = head.firstIndex(of: "{") else {
            return head.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) ? Sample(name: String(head), labels: [:], value: value) : nil
        }
        guard head.last == "}" else { return nil }
        var labels: [String: String] = [:]
        var rest = head[head.index(after: brace)..<head.index(before: head.endIndex)]
        while !rest.isEmpty {
            guard let eq = rest.firstIndex(of: "="), rest[rest.index(after: eq)] == "\"" else { return nil }
            let key = String(rest[..<eq])
            var j = rest.index(eq, offsetBy: 2)
            var v = ""
            while j < rest.endIndex, rest[j] != "\"" {
                if rest[j] == "\\", rest.index(after: j) < rest.endIndex { j = rest.index(after: j) }
                v.append(rest[j])
                j = rest.index(after: j)
            }
            guard j < rest.endIndex else { return nil }
            labels[key] = v
            rest = rest[rest.index(after: j)...]
            if rest.first == "," { rest = rest.dropFirst() }
        }
        return Sample(name: String(head[..<brace]), labels: labels, value: value)
    }

    /// The samples of a histogram's series (labels but `le`), one entry a series.
    func series(of histogram: String) -> [[String: String]: (buckets: [(le: Double, count: Double)], sum: Double?, count: Double?)] {
        var out: [[String: String]: (buckets: [(le: Double, count: Double)], sum: Double?, count: Double?)] = [:]
        for s in samples {
            var key = s.labels
            key["le"] = nil
            var entry = out[key] ?? ([], nil, nil)
            if s.name == histogram + "_bucket" {
                let le = s.labels["le"] == "+Inf" ? Double.infinity : Double(s.labels["le"] ?? "") ?? .nan
                entry.buckets.append((le, s.value))
            } else if s.name == histogram + "_sum" {
                entry.sum = s.value
            } else if s.name == histogram + "_count" {
                entry.count = s.value
            } else {
                continue
            }
            out[key] = entry
        }
        return out
    }

    private mutating func checkHistograms() {
        for (name, type) in types where type == "histogram" {
            for (labels, h) in series(of: name) {
                let what = "\(name)\(labels.sorted { $0.key < $1.key })"
                if h.buckets.isEmpty { problems.append("\(what): no buckets") }
                for k in h.buckets.indices.dropFirst() {
                    if !(h.buckets[k].le > h.buckets[k - 1].le) { problems.append("\(what): le not ascending at \(k)") }
                    if h.buckets[k].count < h.buckets[k - 1].count { problems.append("\(what): buckets not cumulative at \(k)") }
                }
                if h.buckets.last?.le != .infinity { problems.append("\(what): no +Inf bucket last") }
                if h.buckets.last?.count != h.count { problems.append("\(what): +Inf is not _count") }
                if h.sum == nil { problems.append("\(what): no _sum") }
            }
        }
    }
}
