/// Region and quick-action messages: replies, and routed gestures.
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

    /// `"items":[…],"cut":[…]`: `cut` always, empty when nothing was cut, so a client need not tell an
    /// absent key from an empty list.
    private static func appendIDs(_ key: String, _ ids: [String], _ cut: [String], to out: inout [UInt8]) {
        JSONWriter.appendKey(key, to: &out)
        JSONWriter.appendStrings(ids, to: &out)
        JSONWriter.appendKey("cut", to: &out)
        JSONWriter.appendStrings(cut, to: &out)
    }

    /// A gesture routed to a region's owner: the event's usual line plus `"region"`, and for quick actions
    /// the `app` they belong to and the `items` to draw (``RegionTags``).
    public static func appendRouted(
        _ event: PressureEvent, region: String, app: String?, items: [QuickActionItem]?, to out: inout [UInt8]
    ) {
        WireFormat.append(event, to: &out)
        out.removeLast(2)  // "}\n": the tags go inside the object
        RegionTags(region: region, app: app, items: items).appendMembers(to: &out)
        out.append(contentsOf: "}\n".utf8)
    }

    init(regionReply request: String, _ f: MessageFields) throws(MessageDecodingError) {
        let id = f.raw("id")
        switch request {
        case "setRegion":
            self = .regionReply(id: id, .setRegion(
                region: try f.string("region"), items: try f.strings("items"), cut: try f.strings("cut")))
        case "removeRegion":
            self = .regionReply(id: id, .removeRegion(region: try f.string("region")))
        case "setQuickActions":
            self = .regionReply(id: id, .setQuickActions(
                app: try f.string("app"), items: try f.strings("items"), cut: try f.strings("cut")))
        case "chooseAction":
            self = .regionReply(id: id, .chooseAction(
                app: try f.string("app"), action: try f.string("action"), delivered: try f.bool("delivered")))
        default:
            throw MessageDecodingError("a reply to an unknown request \"\(request)\"")
        }
    }
}
