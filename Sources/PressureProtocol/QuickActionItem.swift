/// One quick action: what an app offers on its icon or an item (iOS `UIApplicationShortcutItem`).
public struct QuickActionItem: Hashable, Sendable {
    /// The action's identifier, delivered back to the app when chosen.
    public var id: String
    public var title: String
    public var subtitle: String?
    /// An icon name the drawing client understands.
    public var icon: String?

    public init(id: String, title: String, subtitle: String? = nil, icon: String? = nil) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
    }

    /// At most this many quick actions show at once (iOS shows four).
    public static let maximumShown = 4
}
