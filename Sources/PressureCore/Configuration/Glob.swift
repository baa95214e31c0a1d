/// An fnmatch-style pattern over Unicode scalars: `*` (any run, also empty), `?` (one scalar), `[abc]`,
/// `[a-z]`, `[!a]` or `[^a]` (a set; `]` first in the set is literal), and `\` escaping the next scalar
/// outside sets. Case-sensitive. Matching takes at most pattern × text steps: no exponential backtracking.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    public let pattern: String
    let tokens: [Token]

    enum Token: Hashable, Sendable {
        case scalar(Unicode.Scalar)
        case any
        case star
        case set(ranges: [ClosedRange<UInt32>], negated: Bool)
    }

    /// Why a pattern is malformed.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// A `[` with no closing `]`; the offset (in scalars) of the `[`.
        case unterminatedSet(offset: Int)
        /// A range such as `z-a` whose end is before its start.
        case reversedRange(String)
        /// A `\` at the end of the pattern, escaping nothing.
        case danglingEscape

        public var description: String {
            switch self {
            case .unterminatedSet(let offset): return "'[' at offset \(offset) has no closing ']'"
            case .reversedRange(let r): return "range '\(r)' ends before it starts"
            case .danglingEscape: return "'\\' at the end escapes nothing"
            }
        }
    }

    public init(_ pattern: String) throws(Problem) {
        let p = Array(pattern.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case "*":
                if tokens.last != .star { tokens.append(.star) }
                i += 1
            case "?":
                tokens.append(.any)
                i += 1
            case "\\":
                guard i + 1 < p.count else { throw .danglingEscape }
                tokens.append(.scalar(p[i + 1]))
                i += 2
            case "[":
                let start = i
                i += 1
                var negated = false
                if i < p.count, p[i] == "!" || p[i] == "^" {
                    negated = true
                    i += 1
                }
                var ranges: [ClosedRange<UInt32>] = []
                var first = true
                while true {
                    guard i < p.count else { throw .unterminatedSet(offset: start) }
                    let c = p[i]
                    if c == "]" && !first { break }
                    first = false
                    if i + 2 < p.count, p[i + 1] == "-", p[i + 2] != "]" {
                        let end = p[i + 2]
                        guard c.value <= end.value else {
                            throw .reversedRange(String(String.UnicodeScalarView([c, "-", end])))
                        }
                        ranges.append(c.value...end.value)
                        i += 3
                    } else {
                        ranges.append(c.value...c.value)
                        i += 1
                    }
                }
                i += 1  // the closing ]
                tokens.append(.set(ranges: ranges, negated: negated))
            default:
                tokens.append(.scalar(p[i]))
                i += 1
            }
        }
        self.pattern = pattern
        self.tokens = tokens
    }

    public var description: String { pattern }

    /// Whether the whole of `text` matches. Greedy, with one backtrack point: the last `*` seen.
    public func matches(_ text: String) -> Bool {
        let t = Array(text.unicodeScalars)
        var p = 0, n = 0
        var starToken = -1, starText = 0
        while n < t.count {
            if p < tokens.count {
                let advanced: Bool
                switch tokens[p] {
                case .star:
                    starToken = p
                    starText = n
                    p += 1
                    continue
                case .any: advanced = true
                case .scalar(let c): advanced = c == t[n]
                case .set(let ranges, let negated):
                    advanced = ranges.contains { $0.contains(t[n].value) } != negated
                }
                if advanced {
                    p += 1
                    n += 1
                    continue
                }
            }
            // Mismatch (or pattern used up): let the last star swallow one more scalar, or fail.
            guard starToken >= 0 else { return false }
            starText += 1
            n = starText
            p = starToken + 1
        }
        while p < tokens.count, tokens[p] == .star { p += 1 }
        return p == tokens.count
    }
}
