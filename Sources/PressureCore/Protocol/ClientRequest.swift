/// A request line from a client (`docs/protocol.md`, "Requests"), decoded and checked.
///
/// Unknown keys are ignored, so clients can send fields newer daemons understand. Whether the peer may
/// `set` is not decided here: the daemon checks the peer's credentials and answers `not-permitted`.
public enum ClientRequest: Hashable, Sendable {
    /// Start (or replace) the event subscription.
    case subscribe(Subscription)
    /// List the devices.
    case devices
    /// Reply with the daemon's clock.
    case ping
    /// Reply with what the daemon holds: devices, clients, fingers down, regions (``DaemonStatus``).
    case status
    /// Change settings (a control request).
    case set(SettingsChange)
    /// Read the configuration files again, as `SIGHUP` does (a control request).
    case reload
    /// Forget what a device (nil: every device) learned of its average touch (a control request).
    case resetLearning(device: Int?)
    /// Register or replace a region of the screen (`ClientRequest+Regions.swift`).
    case setRegion(Region)
    /// Remove one of this connection's regions.
    case removeRegion(id: String)
    /// This app's dynamic quick actions (the connection subscribed with an `app`).
    case setQuickActions([QuickActionItem])
    /// The user chose a quick action: deliver it to the app that owns it.
    case chooseAction(app: String, action: String)

    /// The longest request line accepted, in bytes, not counting its `\n` (64 KiB).
    public static let maximumLineLength = 64 * 1024

    /// The `request` string of this request.
    public var name: String {
        switch self {
        case .subscribe: return "subscribe"
        case .devices: return "devices"
        case .ping: return "ping"
        case .status: return "status"
        case .set: return "set"
        case .reload: return "reload"
        case .resetLearning: return "resetLearning"
        case .setRegion: return "setRegion"
        case .removeRegion: return "removeRegion"
        case .setQuickActions: return "setQuickActions"
        case .chooseAction: return "chooseAction"
        }
    }

    /// Whether only root or members of the control group may send this request.
    public var isControl: Bool {
        switch self {
        case .set, .reload, .resetLearning: return true
        case .subscribe, .devices, .ping, .status, .setRegion, .removeRegion, .setQuickActions, .chooseAction: return false
        }
    }
}

/// What a client receives: which event kinds, from which devices.
public struct Subscription: Hashable, Sendable {
    /// Gesture events (`peek`, `pop`, …).
    public var gestures: Bool
    /// `touch` events.
    public var touches: Bool
    /// `device` `added`/`removed` events (`changed` goes to every client regardless).
    public var devices: Bool
    /// Device ids to receive events from; nil for all, including devices that appear later.
    public var deviceIDs: Set<Int>?
    /// The app this connection is (for quick actions registered by it and chosen for it).
    public var app: String? = nil

    /// The default is what `{"request":"subscribe"}` asks for: gestures from all devices.
    public init(gestures: Bool = true, touches: Bool = false, devices: Bool = false, deviceIDs: Set<Int>? = nil) {
        self.gestures = gestures
        self.touches = touches
        self.devices = devices
        self.deviceIDs = deviceIDs
    }

    /// The `events` names, in the order `gestures`, `touches`, `devices`.
    public var eventNames: [String] {
        var names: [String] = []
        if gestures { names.append("gestures") }
        if touches { names.append("touches") }
        if devices { names.append("devices") }
        return names
    }

    /// Whether events from device `id` are wanted.
    public func includes(device id: Int) -> Bool {
        deviceIDs?.contains(id) ?? true
    }
}

/// The fields of a `set` request; at least one is present.
public struct SettingsChange: Hashable, Sendable {
    public var forceTouch: Bool?
    public var sensitivity: Sensitivity?

    public init(forceTouch: Bool? = nil, sensitivity: Sensitivity? = nil) {
        self.forceTouch = forceTouch
        self.sensitivity = sensitivity
    }

    /// `settings` with this change applied.
    public func applied(to settings: GestureSettings) -> GestureSettings {
        var s = settings
        if let forceTouch { s.forceTouchEnabled = forceTouch }
        if let sensitivity { s.sensitivity = sensitivity }
        return s
    }
}

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
        switch name {
        case "subscribe": return .subscribe(try decodeSubscription(fields))
        case "devices": return .devices
        case "ping": return .ping
        case "status": return .status
        case "set": return .set(try decodeSettingsChange(fields))
        case "reload": return .reload
        case "resetLearning":
            guard let value = try fields.field("device") else { return .resetLearning(device: nil) }
            guard let id = value.exactInteger, id >= 1 else {
                throw .invalid("'device' must be a device id (an integer from 1), not \(describe(value))")
            }
            return .resetLearning(device: id)
        case "setRegion": return .setRegion(try decodeRegion(fields))
        case "removeRegion": return .removeRegion(id: try requiredString(fields, "region"))
        case "setQuickActions": return .setQuickActions(try decodeItems(fields))
        case "chooseAction":
            return .chooseAction(app: try requiredString(fields, "app"), action: try requiredString(fields, "action"))
        default:
            throw Failure(
                code: .unknownRequest,
                message: "unknown request \(quoted(name)); known: \(knownRequests)")
        }
    }

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
        guard change.forceTouch != nil || change.sensitivity != nil else {
            throw .invalid("'set' needs 'forceTouch' and/or 'sensitivity'")
        }
        return change
    }

    /// A client's string for a message: quoted, and cut short so an error never echoes a huge field.
    static func quoted(_ s: String) -> String {
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
