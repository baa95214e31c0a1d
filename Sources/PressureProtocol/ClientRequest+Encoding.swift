/// Writing a request as a client sends it, the inverse of ``ClientRequest/parse(line:)``: how the Swift
/// client speaks, with the same types the daemon decodes.
extension ClientRequest {
    /// Appends the request as one line, `\n` included: `{"request":"ping","id":7}`; `id` where given.
    public func append(id: JSONValue? = nil, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"request":"#.utf8)
        JSONWriter.appendString(name, to: &out)
        if let id {
            JSONWriter.appendKey("id", to: &out)
            JSONWriter.append(id, to: &out)
        }
        switch self {
        case .devices, .ping, .status, .reload:
            break
        case .subscribe(let subscription):
            subscription.appendEventsAndDevices(to: &out)
            JSONWriter.appendMember("app", subscription.app, to: &out)
        case .set(let change):
            if let forceTouch = change.forceTouch {
                JSONWriter.appendKey("forceTouch", to: &out)
                JSONWriter.appendBool(forceTouch, to: &out)
            }
            JSONWriter.appendMember("sensitivity", change.sensitivity?.rawValue, to: &out)
            if let haptics = change.haptics {
                JSONWriter.appendKey("haptics", to: &out)
                JSONWriter.appendBool(haptics, to: &out)
            }
        case .resetLearning(let device):
            if let device {
                JSONWriter.appendKey("device", to: &out)
                JSONWriter.appendInteger(device, to: &out)
            }
        case .setRegion(let region):
            Self.append(region, to: &out)
        case .removeRegion(let id):
            JSONWriter.appendMember("region", id, to: &out)
        case .setQuickActions(let items):
            Self.append(items, to: &out)
        case .chooseAction(let app, let action):
            JSONWriter.appendMember("app", app, to: &out)
            JSONWriter.appendMember("action", action, to: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    /// The request as a line without its `\n` (tests, logs).
    public func line(id: JSONValue? = nil) -> String {
        var out: [UInt8] = []
        append(id: id, to: &out)
        out.removeLast()
        return String(decoding: out, as: UTF8.self)
    }

    /// `,"region":"mail","x":0,"y":0,"width":96,"height":96,"z":1,"wants":[…],"app":…,"items":[…]`; its
    /// owner is the daemon's to fill in.
    private static func append(_ region: Region, to out: inout [UInt8]) {
        JSONWriter.appendMember("region", region.id, to: &out)
        for (key, n) in [("x", region.x), ("y", region.y), ("width", region.width), ("height", region.height)] {
            JSONWriter.appendKey(key, to: &out)
            JSONWriter.appendNumber(n, to: &out)
        }
        JSONWriter.appendKey("z", to: &out)
        JSONWriter.appendInteger(region.z, to: &out)
        JSONWriter.appendKey("wants", to: &out)
        JSONWriter.appendStrings(RegionWants.names.filter { region.wants.contains($0.1) }.map(\.0), to: &out)
        JSONWriter.appendMember("app", region.app, to: &out)
        if !region.haptics {
            JSONWriter.appendKey("haptics", to: &out)
            JSONWriter.appendBool(false, to: &out)
        }
        if !region.items.isEmpty { append(region.items, to: &out) }
    }

    private static func append(_ items: [QuickActionItem], to out: inout [UInt8]) {
        JSONWriter.appendKey("items", to: &out)
        JSONWriter.appendList(items, to: &out) { item, out in item.append(to: &out) }
    }
}
