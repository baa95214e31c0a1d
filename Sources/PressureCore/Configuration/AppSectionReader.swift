/// An `[app ID]` section's keys: who may be the app, and its static quick actions.
struct AppSectionReader: ConfigurationValueReading {
    let file: String
    let lineNumber: Int

    func read(_ key: String, _ value: String, into s: inout AppSection) throws(ConfigurationError) {
        switch key {
        case AppSection.Key.user:
            s.users = try accounts(key, value, .user)
            return
        case AppSection.Key.group:
            s.groups = try accounts(key, value, .group)
            return
        default:
            break
        }
        let expected = "id | title | subtitle | icon (subtitle and icon optional)"
        guard key.hasPrefix("QuickAction"), let n = Int(key.dropFirst("QuickAction".count)),
            (1...QuickActionItem.maximumShown).contains(n)
        else {
            throw fail(.unknownAppKey(key: key, app: s.app))
        }
        try requireValue(key, value, expected)
        let parts = value.split(separator: "|", omittingEmptySubsequences: false).map {
            String($0.trimmingPrefix(while: { $0 == " " || $0 == "\t" })).trimmingSuffixSpaces()
        }
        guard parts.count >= 2, parts.count <= 4, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw fail(.invalidNumber(key: key, value: value, expected: expected))
        }
        s.items[n] = QuickActionItem(
            id: parts[0], title: parts[1], subtitle: parts.count > 2 && !parts[2].isEmpty ? parts[2] : nil,
            icon: parts.count > 3 && !parts[3].isEmpty ? parts[3] : nil)
    }
}

extension String {
    func trimmingSuffixSpaces() -> String {
        var s = Substring(self)
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
