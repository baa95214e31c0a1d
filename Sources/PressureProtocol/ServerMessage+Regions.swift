/// Region and quick-action messages: replies, and the tags a routed gesture carries.
extension ServerMessage {
    /// The body of a reply to a region or quick-action request.
    public enum RegionReply: Hashable, Sendable {
        /// The region now in force; `cut` lists item ids beyond the four shown.
        case setRegion(region: String, items: [String], cut: [String])
        case removeRegion(region: String)
        /// The app's quick actions as shown (static first), and the dynamic ids that did not fit.
        case setQuickActions(app: String, items: [String], cut: [String])
        /// `delivered`: the app was connected; otherwise the choice waits for it.
        case chooseAction(app: String, action: String, delivered: Bool)
    }

    static func append(_ reply: RegionReply, to out: inout [UInt8]) {
        JSONWriter.appendKey("request", to: &out)
        switch reply {
        case .setRegion(let region, let items, let cut):
            out.append(contentsOf: #""setRegion","region":"#.utf8)
            JSONWriter.appendString(region, to: &out)
            appendIDs("items", items, cut, to: &out)
        case .removeRegion(let region):
            out.append(contentsOf: #""removeRegion","region":"#.utf8)
            JSONWriter.appendString(region, to: &out)
        case .setQuickActions(let app, let items, let cut):
            out.append(contentsOf: #""setQuickActions","app":"#.utf8)
            JSONWriter.appendString(app, to: &out)
            appendIDs("items", items, cut, to: &out)
        case .chooseAction(let app, let action, let delivered):
            out.append(contentsOf: #""chooseAction","app":"#.utf8)
            JSONWriter.appendString(app, to: &out)
            JSONWriter.appendKey("action", to: &out)
            JSONWriter.appendString(action, to: &out)
            out.append(contentsOf: delivered ? #","delivered":true"#.utf8 : #","delivered":false"#.utf8)
        }
    }

    private static func appendIDs(_ key: String, _ ids: [String], _ cut: [String], to out: inout [UInt8]) {
        JSONWriter.appendKey(key, to: &out)
        appendStrings(ids, to: &out)
        if !cut.isEmpty {
            JSONWriter.appendKey("cut", to: &out)
            appendStrings(cut, to: &out)
        }
    }

    private static func appendStrings(_ list: [String], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, s) in list.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONWriter.appendString(s, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// A gesture routed to a region's owner: the event's usual line plus `"region"`, and for quick actions
    /// the `app` they belong to and the `items` to draw.
    public static func appendRouted(
        _ event: PressureEvent, region: String, app: String?, items: [QuickActionItem]?, to out: inout [UInt8]
    ) {
        WireFormat.append(event, to: &out)
        out.removeLast(2)  // "}\n": the tags go inside the object
        JSONWriter.appendKey("region", to: &out)
        JSONWriter.appendString(region, to: &out)
        if let app {
            JSONWriter.appendKey("app", to: &out)
            JSONWriter.appendString(app, to: &out)
        }
        if let items {
            JSONWriter.appendKey("items", to: &out)
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                out.append(contentsOf: #"{"id":"#.utf8)
                JSONWriter.appendString(item.id, to: &out)
                JSONWriter.appendKey("title", to: &out)
                JSONWriter.appendString(item.title, to: &out)
                if let sub = item.subtitle {
                    JSONWriter.appendKey("subtitle", to: &out)
                    JSONWriter.appendString(sub, to: &out)
                }
                if let icon = item.icon {
                    JSONWriter.appendKey("icon", to: &out)
                    JSONWriter.appendString(icon, to: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: "}\n".utf8)
    }
}
