/// The daemon's version, as `hello` reports it.
public let pressuredVersion = "0.1.0"

/// A line the daemon sends a client besides gesture and touch events (those are ``WireFormat``):
/// `docs/protocol.md`, "The session". Keys are written in the order the document shows.
public enum ServerMessage: Hashable, Sendable {
    /// The first line of every connection.
    case hello(protocolVersion: Int = ServerMessage.protocolVersion, version: String = pressuredVersion,
               devices: [DeviceInfo], settings: PublicSettings)
    /// The answer to a request; `id` is the request's, echoed back.
    case reply(id: JSONValue?, Reply)
    /// An error; `"fatal":true` is added when the connection is closed after it.
    case error(ProtocolError)
    /// A device appeared, vanished, or changed its force capability or `maximumPossibleForce`.
    case device(change: DeviceChange, DeviceInfo)
    /// The settings changed (`set`, `SIGHUP`).
    case settings(PublicSettings)
    /// Touch events dropped for this client since the last notice.
    case dropped(touches: Int)
    /// The daemon is stopping (`reason`: `shutdown`).
    case bye(reason: String)
    /// The answer to a region or quick-action request (`Messages+Regions.swift`).
    case regionReply(id: JSONValue?, RegionReply)
    /// A quick action the user chose, delivered to the app that owns it.
    case action(app: String, action: String)

    /// The protocol version `hello` announces; it changes only for incompatible changes.
    public static let protocolVersion = 1

    /// The body of a `reply`, one per request kind.
    public enum Reply: Hashable, Sendable {
        /// The subscription now in force.
        case subscribe(Subscription)
        case devices([DeviceInfo])
        /// The daemon's monotonic clock.
        case ping(time: Timestamp)
        /// What the daemon holds now, and each device's force (sent as `force`, beside the counts).
        case status(DaemonStatus, force: [DeviceForceStatus])
        /// The settings after the change.
        case set(PublicSettings)
        /// The settings after the configuration was read again.
        case reload(PublicSettings)
        /// The devices whose learned average touch was forgotten.
        case resetLearning(devices: [Int])
    }

    /// The `change` of a `device` event.
    public enum DeviceChange: String, Hashable, Sendable {
        case added, removed, changed
    }

    /// Appends the message as one JSON line, `\n` included.
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"type":"#.utf8)
        switch self {
        case .hello(let protocolVersion, let version, let devices, let settings):
            out.append(contentsOf: #""hello","protocol":"#.utf8)
            JSONWriter.appendInteger(protocolVersion, to: &out)
            JSONWriter.appendKey("version", to: &out)
            JSONWriter.appendString(version, to: &out)
            JSONWriter.appendKey("devices", to: &out)
            Self.append(devices, to: &out)
            JSONWriter.appendKey("settings", to: &out)
            Self.append(settings, to: &out)
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
            Self.append(device, to: &out)
        case .settings(let settings):
            out.append(contentsOf: #""settings","settings":"#.utf8)
            Self.append(settings, to: &out)
        case .dropped(let touches):
            out.append(contentsOf: #""dropped","touches":"#.utf8)
            JSONWriter.appendInteger(touches, to: &out)
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
            out.append(contentsOf: #""subscribe","events":["#.utf8)
            for (i, name) in subscription.eventNames.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(name, to: &out)
            }
            out.append(contentsOf: #"],"devices":"#.utf8)
            if let ids = subscription.deviceIDs {
                out.append(UInt8(ascii: "["))
                for (i, id) in ids.sorted().enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    JSONWriter.appendInteger(id, to: &out)
                }
                out.append(UInt8(ascii: "]"))
            } else {
                out.append(contentsOf: #""all""#.utf8)
            }
        case .devices(let devices):
            out.append(contentsOf: #""devices","devices":"#.utf8)
            append(devices, to: &out)
        case .ping(let time):
            out.append(contentsOf: #""ping","time":"#.utf8)
            WireFormat.appendSeconds(time, to: &out)
        case .status(let status, let force):
            out.append(contentsOf: #""status","status":"#.utf8)
            status.append(to: &out)
            out.append(contentsOf: #","force":["#.utf8)
            for (i, f) in force.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                f.append(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .set(let settings):
            out.append(contentsOf: #""set","settings":"#.utf8)
            append(settings, to: &out)
        case .reload(let settings):
            out.append(contentsOf: #""reload","settings":"#.utf8)
            append(settings, to: &out)
        case .resetLearning(let devices):
            out.append(contentsOf: #""resetLearning","devices":["#.utf8)
            for (i, id) in devices.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendInteger(id, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// `{"forceTouch":true,"sensitivity":"medium"}`
    static func append(_ settings: PublicSettings, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"forceTouch":"#.utf8)
        JSONWriter.appendBool(settings.forceTouch, to: &out)
        JSONWriter.appendKey("sensitivity", to: &out)
        JSONWriter.appendString(settings.sensitivity.rawValue, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    static func append(_ devices: [DeviceInfo], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (i, device) in devices.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            append(device, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// DEVICE: `{"id","name","node","kind","forceCapability","forceUnavailable","maximumPossibleForce","width",
    /// "height","x","y","screen","assumed"}`, `forceUnavailable` only where force is unavailable, `width` and
    /// `height` only where known, `screen` where known (the daemon always knows it), `assumed` only for a
    /// replayed log whose reader had to assume something.
    static func append(_ device: DeviceInfo, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendInteger(device.id, to: &out)
        JSONWriter.appendKey("name", to: &out)
        JSONWriter.appendString(device.name, to: &out)
        JSONWriter.appendKey("node", to: &out)
        JSONWriter.appendString(device.node, to: &out)
        JSONWriter.appendKey("kind", to: &out)
        JSONWriter.appendString(device.kind.rawValue, to: &out)
        JSONWriter.appendKey("forceCapability", to: &out)
        JSONWriter.appendString(device.forceCapability.rawValue, to: &out)
        if let reason = device.forceUnavailable {
            JSONWriter.appendKey("forceUnavailable", to: &out)
            JSONWriter.appendString(reason, to: &out)
        }
        JSONWriter.appendKey("maximumPossibleForce", to: &out)
        WireFormat.appendDecimal(device.maximumPossibleForce, to: &out)
        if let width = device.widthMillimetres, let height = device.heightMillimetres {
            JSONWriter.appendKey("width", to: &out)
            WireFormat.appendDecimal(width, to: &out)
            JSONWriter.appendKey("height", to: &out)
            WireFormat.appendDecimal(height, to: &out)
        }
        JSONWriter.appendKey("x", to: &out)
        append(device.xAxis, to: &out)
        JSONWriter.appendKey("y", to: &out)
        append(device.yAxis, to: &out)
        if let screen = device.screen {
            JSONWriter.appendKey("screen", to: &out)
            append(screen, to: &out)
        }
        if !device.assumed.isEmpty {
            JSONWriter.appendKey("assumed", to: &out)
            out.append(UInt8(ascii: "["))
            for (i, a) in device.assumed.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONWriter.appendString(a, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"width":1920,"height":1080,"rotation":90,"matrix":[1,0,0,0,1,0]}`
    static func append(_ screen: ScreenGeometry, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"width":"#.utf8)
        WireFormat.appendDecimal(screen.width, to: &out)
        out.append(contentsOf: #","height":"#.utf8)
        WireFormat.appendDecimal(screen.height, to: &out)
        out.append(contentsOf: #","rotation":"#.utf8)
        WireFormat.appendInteger(Int64(screen.rotation.rawValue), to: &out)
        out.append(contentsOf: #","matrix":["#.utf8)
        for (i, v) in screen.matrix.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            WireFormat.appendDecimal(v, to: &out)
        }
        out.append(contentsOf: "]}".utf8)
    }

    /// `{"min":0,"max":4095}`
    static func append(_ axis: AxisRange, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"min":"#.utf8)
        WireFormat.appendInteger(Int64(axis.minimum), to: &out)
        out.append(contentsOf: #","max":"#.utf8)
        WireFormat.appendInteger(Int64(axis.maximum), to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
