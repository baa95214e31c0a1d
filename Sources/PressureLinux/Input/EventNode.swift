/// `eventN` node names.
enum EventNode {
    /// The N of `eventN`, or nil for any other name (`mouse0`, `by-id`, `event`, `event3.tmp`).
    static func number(_ name: some StringProtocol) -> Int? {
        guard name.hasPrefix("event") else { return nil }
        let digits = name.dropFirst(5)
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    /// The last path component.
    static func basename(_ path: String) -> Substring {
        path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path)
    }

    /// Whether a path names an `eventN` node.
    static func isEventNode(_ path: String) -> Bool { number(basename(path)) != nil }

    /// Nodes in number order (`event2` before `event10`), which is the order the kernel made them.
    static func sorted(_ nodes: some Sequence<String>) -> [String] {
        nodes.sorted { (number(basename($0)) ?? Int.max, $0) < (number(basename($1)) ?? Int.max, $1) }
    }
}
