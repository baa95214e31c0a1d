/// Decoding the region and quick-action requests (`docs/protocol.md`, "Regions and quick actions").
extension ClientRequest {
    /// Identifiers and texts clients send are bounded, so a hostile client cannot make the daemon keep
    /// (or echo to others) megabytes.
    static let maximumTextLength = 256

    static func requiredString(_ fields: Fields, _ key: String) throws(Failure) -> String {
        guard let s = try optionalString(fields, key) else { throw .invalid("'\(key)' is required (a string)") }
        return s
    }

    static func optionalString(_ fields: Fields, _ key: String) throws(Failure) -> String? {
        guard let v = try fields.field(key) else { return nil }
        guard case .string(let s) = v, !s.isEmpty, s.utf8.count <= maximumTextLength else {
            throw .invalid("'\(key)' must be a non-empty string of at most \(maximumTextLength) bytes, not \(describe(v))")
        }
        return s
    }

    static func number(_ fields: Fields, _ key: String, default fallback: Double? = nil) throws(Failure) -> Double {
        guard let v = try fields.field(key) else {
            if let fallback { return fallback }
            throw .invalid("'\(key)' is required (a number of screen pixels)")
        }
        guard case .number(let n, _) = v, n.isFinite, abs(n) <= 1e7 else {
            throw .invalid("'\(key)' must be a number of screen pixels, not \(describe(v))")
        }
        return n
    }

    /// `{"request":"setRegion","region":"mail","x":0,"y":0,"width":96,"height":96,"z":1,
    ///   "wants":["previews","quickActions","longPress"],"app":"org.example.mail","items":[…],"haptics":false}`
    static func decodeRegion(_ fields: Fields) throws(Failure) -> Region {
        let id = try requiredString(fields, "region")
        let width = try number(fields, "width")
        let height = try number(fields, "height")
        guard width > 0, height > 0 else { throw .invalid("a region needs a positive 'width' and 'height'") }
        var region = Region(
            id: id, owner: 0, x: try number(fields, "x"), y: try number(fields, "y"), width: width, height: height)
        if let z = try fields.field("z") {
            guard let n = z.exactInteger, abs(n) <= 1_000_000 else {
                throw .invalid("'z' must be an integer (higher is on top), not \(describe(z))")
            }
            region.z = n
        }
        if let wants = try fields.field("wants") {
            guard case .array(let names) = wants else {
                throw .invalid("'wants' must be a list of \"previews\", \"quickActions\", \"longPress\"")
            }
            region.wants = []
            for name in names {
                guard case .string(let s) = name, let w = RegionWants.names.first(where: { $0.0 == s })?.1 else {
                    throw .invalid("unknown want \(describe(name)); known: previews, quickActions, longPress")
                }
                region.wants.insert(w)
            }
        }
        region.app = try optionalString(fields, "app")
        if let h = try fields.field("haptics") {
            guard case .bool(let on) = h else { throw .invalid("'haptics' must be true or false, not \(describe(h))") }
            region.haptics = on
        }
        if try fields.field("items") != nil { region.items = try decodeItems(fields) }
        return region
    }

    /// `"items":[{"id":"compose","title":"New Message","subtitle":"…","icon":"compose"}]`; the list is
    /// kept whole here (the daemon cuts it to four and says what it cut).
    static func decodeItems(_ fields: Fields) throws(Failure) -> [QuickActionItem] {
        guard let value = try fields.field("items") else { throw .invalid("'items' is required (a list)") }
        guard case .array(let elements) = value, elements.count <= 64 else {
            throw .invalid("'items' must be a list of at most 64 quick actions, not \(describe(value))")
        }
        var items: [QuickActionItem] = []
        for element in elements {
            guard case .object(let members) = element else {
                throw .invalid("each item must be an object with 'id' and 'title', not \(describe(element))")
            }
            let f = Fields(members: members)
            items.append(QuickActionItem(
                id: try requiredString(f, "id"), title: try requiredString(f, "title"),
                subtitle: try optionalString(f, "subtitle"), icon: try optionalString(f, "icon")))
        }
        return items
    }
}
