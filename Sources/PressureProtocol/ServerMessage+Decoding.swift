/// Decoding what ``ServerMessage/append(to:)`` writes: how a client reads the daemon's lines, with the
/// same types the daemon encodes. Unknown keys are passed over; an unknown `type` or reply is an error
/// here (a client keeps such a line whole rather than failing: ``PressureEvent`` and the client's
/// events).
extension ServerMessage {
    /// Decodes one line (without its `\n`).
    public init(line: [UInt8]) throws(MessageDecodingError) {
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch { throw MessageDecodingError("not JSON: \(error)") }
        try self.init(json: value)
    }

    /// Decodes one parsed line.
    public init(json: JSONValue) throws(MessageDecodingError) {
        let f = try MessageFields(json, what: "a message")
        switch try f.string("type") {
        case "hello":
            self = .hello(try Hello(f))
        case "reply":
            let request = try f.string("request")
            if let reply = try Self.reply(to: request, f) {
                self = .reply(id: f.raw("id"), reply)
            } else {
                self = try ServerMessage(regionReply: request, f)
            }
        case "error":
            self = .error(try ProtocolError(f))
        case "device":
            self = .device(
                change: try f.enumeration("change", DeviceChange.self), try DeviceInfo(try f.object("device")))
        case "settings":
            self = .settings(try PublicSettings(try f.object("settings")))
        case "dropped":
            self = .dropped(try DroppedTouches(f))
        case "bye":
            self = .bye(reason: try f.optionalString("reason") ?? "")
        case "action":
            self = .action(app: try f.string("app"), action: try f.string("action"))
        case let other:
            throw MessageDecodingError("\"\(other)\" is not a message of the session (an event, or newer)")
        }
    }

    /// The reply to `request`; nil when it is not one of these (a region reply, or an unknown one).
    static func reply(to request: String, _ f: MessageFields) throws(MessageDecodingError) -> Reply? {
        switch request {
        case "subscribe": return .subscribe(try Subscription(reply: f))
        case "devices": return .devices(try DeviceInfo.list(f, "devices"))
        case "ping": return .ping(time: try f.timestamp("time"))
        case "status":
            var force: [DeviceForceStatus] = []
            for entry in try f.objects("force") { force.append(try DeviceForceStatus(entry)) }
            var latency: [DeviceLatency] = []
            if f.raw("latency") != nil {
                for entry in try f.objects("latency") { latency.append(try DeviceLatency(entry)) }
            }
            var actions: [ActionStatus] = []
            if f.raw("actions") != nil {
                for entry in try f.objects("actions") { actions.append(try ActionStatus(entry)) }
            }
            return .status(
                try DaemonStatus(try f.object("status")), force: force, latency: latency,
                activity: try f.optionalObject("activity").map { o throws(MessageDecodingError) in try DaemonActivity(o) },
                actions: actions)
        case "set": return .set(try PublicSettings(try f.object("settings")))
        case "reload": return .reload(try PublicSettings(try f.object("settings")))
        case "resetLearning":
            var ids: [Int] = []
            for v in try f.array("devices") {
                guard let id = v.exactInteger else { throw MessageDecodingError("'devices' must hold device ids") }
                ids.append(id)
            }
            return .resetLearning(devices: ids)
        default: return nil
        }
    }
}
