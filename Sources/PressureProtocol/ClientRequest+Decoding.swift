extension ClientRequest {
    /// A parsed request and the `id` to echo in its answer (nil when the request had none).
    public typealias Identified = (id: JSONValue?, request: ClientRequest)

    /// Decodes one request line (without its `\n`; a trailing `\r` is whitespace to JSON).
    ///
    /// Errors carry the request's `id` whenever the line was a JSON object with one.
    public static func parse(line: UnsafeBufferPointer<UInt8>) -> Result<Identified, ProtocolError> {
        guard line.count <= maximumLineLength else { return .failure(.lineTooLong()) }
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

    /// Decodes one request line (without its `\n`).
    public static func parse(line: [UInt8]) -> Result<Identified, ProtocolError> {
        line.withUnsafeBufferPointer { parse(line: $0) }
    }

    /// Decodes a request line given as text (tests and tools).
    public static func parse(line: String) -> Result<Identified, ProtocolError> {
        parse(line: Array(line.utf8))
    }

    // MARK: Decoding

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
        guard let kind = Name(rawValue: name) else {
            throw Failure(code: .unknownRequest, message: "unknown request \(quoted(name)); known: \(knownRequests)")
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

    /// Every request name, for the unknown-request message.
    static let knownRequests = Name.allCases.map(\.rawValue).joined(separator: ", ")

    static func decodeSubscription(_ fields: Fields) throws(Failure) -> Subscription {
        var subscription = Subscription()
        if let events = try fields.field("events") {
            guard case .array(let elements) = events else {
                throw .invalid(
                    "'events' must be a list of \"gestures\", \"touches\", \"devices\", not \(events.typeDescription)")
            }
            subscription.gestures = false
            for element in elements {
                switch element {
                case .string("gestures"): subscription.gestures = true
                case .string("touches"): subscription.touches = true
                case .string("devices"): subscription.devices = true
                case .string(let other):
                    throw .invalid("unknown event kind \(quoted(other)) in 'events'; known: gestures, touches, devices")
                default:
                    throw .invalid("'events' must hold strings, not \(element.typeDescription)")
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
                throw .invalid("'sensitivity' must be \"light\", \"medium\" or \"firm\", not \(describe(value))")
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

    /// A client's string for a message: quoted, and cut short so an error never echoes a huge field.
    public static func quoted(_ s: String) -> String {
        let limit = 40
        return s.count <= limit ? "\"\(s)\"" : "\"\(s.prefix(limit))…\""
    }

    /// A value for a message: strings quoted, numbers and literals as JSON, containers by their type.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return quoted(s)
        case .null, .bool, .number: return value.jsonText
        case .array, .object: return value.typeDescription
        }
    }
}
