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
/// and `Group` close the app to everyone else (`Account.swift`).
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
