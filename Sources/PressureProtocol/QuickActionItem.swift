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

extension QuickActionItem {
    /// `{"id":"compose","title":"New Message","subtitle":"…","icon":"compose"}`, `subtitle` and `icon`
    /// where given.
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendString(id, to: &out)
        JSONWriter.appendKey("title", to: &out)
        JSONWriter.appendString(title, to: &out)
        JSONWriter.appendMember("subtitle", subtitle, to: &out)
        JSONWriter.appendMember("icon", icon, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Decodes an item as ``append(to:)`` writes it (a routed `quickActions` gesture's `items`).
    public init(json: JSONValue) throws(MessageDecodingError) {
        let f = try MessageFields(json, what: "a quick action")
        self.init(
            id: try f.string("id"), title: try f.string("title"), subtitle: try f.optionalString("subtitle"),
            icon: try f.optionalString("icon"))
    }
}
