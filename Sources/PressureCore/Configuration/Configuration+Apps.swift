/// An `[app ID]` section: the static quick actions of one app, shown on its icon before the dynamic ones
/// the app registers at run time.
///
/// ```
/// [app org.example.mail]
/// QuickAction1 = compose | New Message | | compose
/// QuickAction2 = inbox | Inbox | 3 unread | tray
/// ```
/// Each value is `id | title | subtitle | icon`; subtitle and icon may be left empty or out.
public struct AppSection: Hashable, Sendable {
    public var app: String
    public var file: String
    public var line: Int
    /// By key number (`QuickAction1` … `QuickAction4`).
    public var items: [Int: QuickActionItem] = [:]
    public var keyLines: [String: Int] = [:]

    public init(app: String, file: String, line: Int) {
        self.app = app
        self.file = file
        self.line = line
    }

    /// `app org.example.mail` → `org.example.mail`.
    static func appID(fromTitle title: String) -> String? {
        guard title.hasPrefix("app ") else { return nil }
        let id = title.dropFirst(4).trimmingPrefix(while: { $0 == " " })
        return id.isEmpty ? nil : String(id)
    }

    /// The items in key order.
    public var orderedItems: [QuickActionItem] { items.keys.sorted().compactMap { items[$0] } }
}

extension Configuration {
    /// An app's static quick actions: the last `[app ID]` section for it wins as a whole.
    public func staticQuickActions(forApp app: String) -> [QuickActionItem] {
        appSections.last { $0.app == app }?.orderedItems ?? []
    }
}

extension ConfigurationParser {
    mutating func appKey(_ key: String, _ value: String, in s: inout AppSection) throws(ConfigurationError) {
        let expected = "id | title | subtitle | icon (subtitle and icon optional)"
        guard key.hasPrefix("QuickAction"), let n = Int(key.dropFirst("QuickAction".count)),
            (1...QuickActionItem.maximumShown).contains(n)
        else {
            throw fail(.unknownDeviceKey(key: key, section: "app \(s.app)"))
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
