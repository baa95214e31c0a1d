/// A line the daemon sends a client besides gesture and touch events (those are ``WireFormat``):
/// `docs/protocol.md`, "The session". Keys are written in the order the document shows.
public enum ServerMessage: Hashable, Sendable {
    /// The first line of every connection.
    case hello(Hello)
    /// The answer to a request; `id` is the request's, echoed back.
    case reply(id: JSONValue?, Reply)
    /// An error; `"fatal":true` is added when the connection is closed after it.
    case error(ProtocolError)
    /// A device appeared, vanished, or changed its force capability or `maximumPossibleForce`.
    case device(change: DeviceChange, DeviceInfo)
    /// The settings changed (`set`, `SIGHUP`).
    case settings(PublicSettings)
    /// Touch events a full queue left out for this client since the last notice, and whose.
    case dropped(DroppedTouches)
    /// The daemon is stopping (`reason`: `shutdown`).
    case bye(reason: String)
    /// The answer to a region or quick-action request (`ServerMessage+Regions.swift`).
    case regionReply(id: JSONValue?, RegionReply)
    /// A quick action the user chose, delivered to the app that owns it.
    case action(app: String, action: String)

    /// The protocol version `hello` announces; it changes only for incompatible changes.
    public static let protocolVersion = 1

    /// A `hello` (this daemon's protocol and version unless told otherwise).
    public static func hello(
        protocolVersion: Int = ServerMessage.protocolVersion, version: String = pressuredVersion,
        devices: [DeviceInfo], settings: PublicSettings
    ) -> ServerMessage {
        .hello(Hello(protocolVersion: protocolVersion, version: version, devices: devices, settings: settings))
    }

    /// The body of a `reply`, one per request kind.
    public enum Reply: Hashable, Sendable {
        /// The subscription now in force.
        case subscribe(Subscription)
        case devices([DeviceInfo])
        /// The daemon's monotonic clock.
        case ping(time: Timestamp)
        /// What the daemon holds now, each device's force (sent as `force`, beside the counts), its
        /// latency figures (`latency`; absent from older daemons' replies, decoded as none), and what it
        /// has done since it started (`activity`; nil from a daemon that does not say), and the actions in
        /// force for each device (`actions`, sent only where there are some).
        case status(
            DaemonStatus, force: [DeviceForceStatus], latency: [DeviceLatency] = [], activity: DaemonActivity? = nil,
            actions: [ActionStatus] = [])
        /// The settings after the change.
        case set(PublicSettings)
        /// The settings after the configuration was read again.
        case reload(PublicSettings)
        /// The devices whose learned average touch was forgotten.
        case resetLearning(devices: [Int])
    }

    /// The `change` of a `device` event.
    public enum DeviceChange: String, Hashable, Sendable, CaseIterable {
        case added, removed, changed
    }

    /// Appends the message as one JSON line, `\n` included.
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"type":"#.utf8)
        switch self {
        case .hello(let hello):
            out.append(contentsOf: #""hello","protocol":"#.utf8)
            JSONWriter.appendInteger(hello.protocolVersion, to: &out)
            JSONWriter.appendKey("version", to: &out)
            JSONWriter.appendString(hello.version, to: &out)
            JSONWriter.appendKey("devices", to: &out)
            Self.append(hello.devices, to: &out)
            JSONWriter.appendKey("settings", to: &out)
            hello.settings.append(to: &out)
        case .reply(let id, let reply):
            out.append(contentsOf: #""reply""#.utf8)
            Self.appendID(id, to: &out)
            Self.append(reply, to: &out)
        case .error(let error):
            out.append(contentsOf: #""error""#.utf8)
            Self.appendID(error.id, to: &out)
            JSONWriter.appendKey("error", to: &out)
            JSONWriter.appendString(error.code.rawValue, to: &out)
            JSONWriter.appendKey("message", to: &out)
            JSONWriter.appendString(error.message, to: &out)
            if error.fatal { out.append(contentsOf: #","fatal":true"#.utf8) }
        case .device(let change, let device):
            out.append(contentsOf: #""device","change":"#.utf8)
            JSONWriter.appendString(change.rawValue, to: &out)
            JSONWriter.appendKey("device", to: &out)
            device.append(to: &out)
        case .settings(let settings):
            out.append(contentsOf: #""settings","settings":"#.utf8)
            settings.append(to: &out)
        case .dropped(let dropped):
            out.append(contentsOf: #""dropped""#.utf8)
            dropped.append(to: &out)
        case .bye(let reason):
            out.append(contentsOf: #""bye","reason":"#.utf8)
            JSONWriter.appendString(reason, to: &out)
        case .regionReply(let id, let reply):
            out.append(contentsOf: #""reply""#.utf8)
            Self.appendID(id, to: &out)
            Self.append(reply, to: &out)
        case .action(let app, let action):
            out.append(contentsOf: #""action","app":"#.utf8)
            JSONWriter.appendString(app, to: &out)
            JSONWriter.appendKey("action", to: &out)
            JSONWriter.appendString(action, to: &out)
        }
        out.append(contentsOf: "}\n".utf8)
    }

    /// The message as a line without its `\n` (tests, logs).
    public var line: String {
        var out: [UInt8] = []
        append(to: &out)
        out.removeLast()
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: Pieces

    static func appendID(_ id: JSONValue?, to out: inout [UInt8]) {
        guard let id else { return }
        JSONWriter.appendKey("id", to: &out)
        JSONWriter.append(id, to: &out)
    }

    private static func append(_ reply: Reply, to out: inout [UInt8]) {
        JSONWriter.appendKey("request", to: &out)
        switch reply {
        case .subscribe(let subscription):
            out.append(contentsOf: #""subscribe""#.utf8)
            subscription.appendEventsAndDevices(to: &out)
        case .devices(let devices):
            out.append(contentsOf: #""devices","devices":"#.utf8)
            append(devices, to: &out)
        case .ping(let time):
            out.append(contentsOf: #""ping","time":"#.utf8)
            WireFormat.appendSeconds(time, to: &out)
        case .status(let status, let force, let latency, let activity, let actions):
            out.append(contentsOf: #""status","status":"#.utf8)
            status.append(to: &out)
            JSONWriter.appendKey("force", to: &out)
            JSONWriter.appendList(force, to: &out) { f, out in f.append(to: &out) }
            JSONWriter.appendKey("latency", to: &out)
            JSONWriter.appendList(latency, to: &out) { l, out in l.append(to: &out) }
            if let activity {
                JSONWriter.appendKey("activity", to: &out)
                activity.append(to: &out)
            }
            if !actions.isEmpty {
                JSONWriter.appendKey("actions", to: &out)
                JSONWriter.appendList(actions, to: &out) { a, out in a.append(to: &out) }
            }
        case .set(let settings):
            out.append(contentsOf: #""set","settings":"#.utf8)
            settings.append(to: &out)
        case .reload(let settings):
            out.append(contentsOf: #""reload","settings":"#.utf8)
            settings.append(to: &out)
        case .resetLearning(let devices):
            out.append(contentsOf: #""resetLearning","devices":"#.utf8)
            JSONWriter.appendIntegers(devices, to: &out)
        }
    }

    static func append(_ devices: [DeviceInfo], to out: inout [UInt8]) {
        JSONWriter.appendList(devices, to: &out) { d, out in d.append(to: &out) }
    }
}
