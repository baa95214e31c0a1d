/// An `[app ID]` section: the static quick actions of one app, shown on its icon before the dynamic ones
/// the app registers at run time, and who may be the app.
///
/// ```
/// [app org.example.mail]
/// User = mail
/// QuickAction1 = compose | New Message | | compose
/// QuickAction2 = inbox | Inbox | 3 unread | tray
/// ```
/// Each quick action is `id | title | subtitle | icon`; subtitle and icon may be left empty or out. `User`
/// and `Group` close the app to everyone else (`Configuration+Access.swift`).
public struct AppSection: Hashable, Sendable {
    public enum Key {
        public static let user = "User"
        public static let group = "Group"
        public static let all = ["QuickAction1", "QuickAction2", "QuickAction3", "QuickAction4", user, group]
    }

    public var app: String
    public var file: String
    public var line: Int
    /// By key number (`QuickAction1` … `QuickAction4`).
    public var items: [Int: QuickActionItem] = [:]
    /// `User`, `Group`: who may be this app; nil where the section does not say.
    public var users: [Account]?
    public var groups: [Account]?
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
    /// An app's static quick actions: those of the last `[app ID]` section for it that lists any, as a
    /// whole (a later section that only says who the app is keeps them).
    public func staticQuickActions(forApp app: String) -> [QuickActionItem] {
        appSections.last { $0.app == app && !$0.items.isEmpty }?.orderedItems ?? []
    }
}

extension ConfigurationParser {
    mutating func appKey(_ key: String, _ value: String, in s: inout AppSection) throws(ConfigurationError) {
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
