/// What a gesture routed to the owner of the region its touch began in carries beside the event
/// (`docs/protocol.md`, "Regions and quick actions"): the region's id, and for quick actions the app they
/// belong to and the items to draw.
public struct RegionTags: Hashable, Sendable {
    public var region: String
    /// For an icon's `quickActions`: the app the items belong to.
    public var app: String?
    /// For `quickActions`: the items to draw, at most ``QuickActionItem/maximumShown``.
    public var items: [QuickActionItem]?

    public init(region: String, app: String? = nil, items: [QuickActionItem]? = nil) {
        self.region = region
        self.app = app
        self.items = items
    }

    /// `,"region":"mail","app":"org.example.mail","items":[…]`: the members that follow the event's own.
    func appendMembers(to out: inout [UInt8]) {
        JSONWriter.appendKey("region", to: &out)
        JSONWriter.appendString(region, to: &out)
        JSONWriter.appendMember("app", app, to: &out)
        if let items {
            JSONWriter.appendKey("items", to: &out)
            JSONWriter.appendList(items, to: &out) { item, out in item.append(to: &out) }
        }
    }

    /// The tags of an event line, nil when it has no `region` (the gesture was not routed). Items without
    /// a string `id` and `title` are passed over.
    public init?(json: JSONValue) throws(MessageDecodingError) {
        try self.init(MessageFields(json, what: "an event"))
    }

    init?(_ f: MessageFields) throws(MessageDecodingError) {
        guard let region = try f.optionalString("region") else { return nil }
        self.init(
            region: region, app: try f.optionalString("app"),
            items: f.raw("items")?.arrayValue.map { $0.compactMap { try? QuickActionItem(json: $0) } })
    }
}
