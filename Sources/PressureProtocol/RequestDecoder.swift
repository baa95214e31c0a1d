/// Turns a request line into a ``ClientRequest``: the JSON object is checked field by field, and every
/// refusal names the field and what it must be, so a client's author can fix the request from the
/// answer alone. Kept apart from ``ClientRequest`` because the requests are the vocabulary both sides
/// share, while these checks are the daemon's side of it.
enum RequestDecoder {
    /// Decodes one request line (without its `\n`; a trailing `\r` is whitespace to JSON).
    ///
    /// Errors carry the request's `id` whenever the line was a JSON object with one.
    static func parse(line: UnsafeBufferPointer<UInt8>) -> Result<ClientRequest.Identified, ProtocolError> {
        guard line.count <= ClientRequest.maximumLineLength else { return .failure(.lineTooLong()) }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            return .failure(ProtocolError(code: .invalidJSON, message: "invalid JSON at \(error)"))
        }
        guard case .object(let members) = value else {
            let message = "a request must be a JSON object, not \(value.typeDescription)"
            return .failure(ProtocolError(code: .invalidJSON, message: message))
        }
        let fields = Fields(members: members)
        do {
            return .success((fields.id, try decode(fields)))
        } catch {
            return .failure(ProtocolError(id: fields.id, code: error.code, message: error.message))
        }
    }

    /// A failure while decoding a request object; the caller adds the `id`.
    struct Failure: Error {
        var code: ProtocolError.Code
        var message: String

        static func invalid(_ message: String) -> Failure { Failure(code: .invalidArgument, message: message) }
    }

    /// The members of a request object, looked up by key.
    struct Fields {
        var members: [(String, JSONValue)]

        /// The first `id`, if any.
        var id: JSONValue? { value("id") }

        func value(_ key: String) -> JSONValue? {
            for (k, v) in members where k == key { return v }
            return nil
        }

        /// The value of a key the request reads, nil when absent or `null`; a key given twice is an error
        /// rather than a guess at which one the client meant.
        func field(_ key: String) throws(Failure) -> JSONValue? {
            var found: JSONValue?
            for (k, v) in members where k == key {
                if found != nil { throw .invalid("'\(key)' is given more than once") }
                found = v
            }
            if found == .null { return nil }
            return found
        }
    }

    static func decode(_ fields: Fields) throws(Failure) -> ClientRequest {
        _ = try fields.field("id")
        guard let requestValue = try fields.field("request") else {
            throw Failure(code: .unknownRequest, message: "the request has no 'request' field")
        }
        guard case .string(let name) = requestValue else {
            throw Failure(
                code: .unknownRequest, message: "'request' must be a string, not \(requestValue.typeDescription)")
        }
        guard let kind = ClientRequest.Name(rawValue: name) else {
            throw Failure(code: .unknownRequest, message: "unknown request \(ClientRequest.quoted(name)); known: \(ClientRequest.knownRequests)")
        }
        switch kind {
        case .subscribe: return .subscribe(try decodeSubscription(fields))
        case .devices: return .devices
        case .ping: return .ping
        case .status: return .status
        case .set: return .set(try decodeSettingsChange(fields))
        case .reload: return .reload
        case .resetLearning:
            guard let value = try fields.field("device") else { return .resetLearning(device: nil) }
            guard let id = value.exactInteger, id >= 1 else {
                throw .invalid("'device' must be a device id (an integer from 1), not \(describe(value))")
            }
            return .resetLearning(device: id)
        case .setRegion: return .setRegion(try decodeRegion(fields))
        case .removeRegion: return .removeRegion(id: try requiredString(fields, "region"))
        case .setQuickActions: return .setQuickActions(try decodeItems(fields))
        case .chooseAction:
            return .chooseAction(app: try requiredString(fields, "app"), action: try requiredString(fields, "action"))
        }
    }

    static func decodeSubscription(_ fields: Fields) throws(Failure) -> Subscription {
        var subscription = Subscription()
        if let events = try fields.field("events") {
            guard case .array(let elements) = events else {
                throw .invalid("'events' must be a list of \(quotedList(eventNames)), not \(events.typeDescription)")
            }
            subscription.gestures = false
            for element in elements {
                guard case .string(let name) = element else {
                    throw .invalid("'events' must hold strings, not \(element.typeDescription)")
                }
                switch EventKind(rawValue: name) {
                case .gestures: subscription.gestures = true
                case .touches: subscription.touches = true
                case .devices: subscription.devices = true
                case nil:
                    throw .invalid("unknown event kind \(ClientRequest.quoted(name)) in 'events'; known: \(list(eventNames))")
                }
            }
        }
        switch try fields.field("devices") {
        case nil, .string("all"):
            subscription.deviceIDs = nil
        case .array(let elements):
            var ids = Set<Int>()
            for element in elements {
                guard let id = element.exactInteger, id >= 1 else {
                    throw .invalid("'devices' must hold device ids (integers from 1), not \(describe(element))")
                }
                ids.insert(id)
            }
            subscription.deviceIDs = ids
        case let other?:
            throw .invalid("'devices' must be a list of device ids or \"all\", not \(describe(other))")
        }
        subscription.app = try optionalString(fields, "app")
        return subscription
    }

    static func decodeSettingsChange(_ fields: Fields) throws(Failure) -> SettingsChange {
        var change = SettingsChange()
        if let value = try fields.field("forceTouch") {
            guard case .bool(let on) = value else {
                throw .invalid("'forceTouch' must be true or false, not \(describe(value))")
            }
            change.forceTouch = on
        }
        if let value = try fields.field("sensitivity") {
            guard case .string(let name) = value, let sensitivity = Sensitivity(rawValue: name) else {
                let names = quotedList(Sensitivity.allCases.map(\.rawValue), lastJoinedBy: " or ")
                throw .invalid("'sensitivity' must be \(names), not \(describe(value))")
            }
            change.sensitivity = sensitivity
        }
        if let value = try fields.field("haptics") {
            guard case .bool(let on) = value else {
                throw .invalid("'haptics' must be true or false, not \(describe(value))")
            }
            change.haptics = on
        }
        guard change.forceTouch != nil || change.sensitivity != nil || change.haptics != nil else {
            throw .invalid("'set' needs one or more of 'forceTouch', 'sensitivity', 'haptics'")
        }
        return change
    }

    /// The names of the protocol's vocabularies, from the types that hold them, for the messages: each
    /// message lists exactly the names there are.
    static let eventNames = EventKind.allCases.map(\.rawValue)
    static let wantNames = RegionWants.names.map(\.0)

    /// `gestures, touches, devices`.
    static func list(_ names: [String]) -> String { names.joined(separator: ", ") }

    /// `"gestures", "touches", "devices"`, or with the last joined by `" or "`, `"light", "medium" or "firm"`.
    static func quotedList(_ names: [String], lastJoinedBy last: String = ", ") -> String {
        let quoted = names.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + last + quoted[quoted.count - 1]
    }

    /// A value for a message: strings quoted, numbers and literals as JSON, containers by their type.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return ClientRequest.quoted(s)
        case .null, .bool, .number: return value.jsonText
        case .array, .object: return value.typeDescription
        }
    }

    // MARK: Regions and quick actions (`docs/protocol.md`, "Regions and quick actions")

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
                throw .invalid("'wants' must be a list of \(quotedList(wantNames))")
            }
            region.wants = []
            for name in names {
                guard case .string(let s) = name, let w = RegionWants.names.first(where: { $0.0 == s })?.1 else {
                    throw .invalid("unknown want \(describe(name)); known: \(list(wantNames))")
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
        guard case .array(let elements) = value else {
            throw .invalid("'items' must be a list of at most 64 quick actions, not \(describe(value))")
        }
        guard elements.count <= 64 else {
            throw .invalid("'items' must be a list of at most 64 quick actions, not a list of \(elements.count)")
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
