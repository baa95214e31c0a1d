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
    /// Register or replace a region of the screen (decoded by ``RequestDecoder``).
    case setRegion(Region)
    /// Remove one of this connection's regions.
    case removeRegion(id: String)
    /// This app's dynamic quick actions (the connection subscribed with an `app`).
    case setQuickActions([QuickActionItem])
    /// The user chose a quick action: deliver it to the app that owns it.
    case chooseAction(app: String, action: String)

    /// The longest request line accepted, in bytes, not counting its `\n` (64 KiB).
    public static let maximumLineLength = 64 * 1024

    /// The `request` strings, one for each case. The decoder switches over them and the unknown-request
    /// message lists them, so neither can miss a request.
    public enum Name: String, CaseIterable, Sendable {
        case subscribe, devices, ping, status, set, reload, resetLearning
        case setRegion, removeRegion, setQuickActions, chooseAction
    }

    /// The kind of this request.
    public var kind: Name {
        switch self {
        case .subscribe: return .subscribe
        case .devices: return .devices
        case .ping: return .ping
        case .status: return .status
        case .set: return .set
        case .reload: return .reload
        case .resetLearning: return .resetLearning
        case .setRegion: return .setRegion
        case .removeRegion: return .removeRegion
        case .setQuickActions: return .setQuickActions
        case .chooseAction: return .chooseAction
        }
    }

    /// The `request` string of this request.
    public var name: String { kind.rawValue }

    /// Whether only root or members of the control group may send this request.
    public var isControl: Bool {
        switch self {
        case .set, .reload, .resetLearning: return true
        case .subscribe, .devices, .ping, .status, .setRegion, .removeRegion, .setQuickActions, .chooseAction: return false
        }
    }

    /// A parsed request and the `id` to echo in its answer (nil when the request had none).
    public typealias Identified = (id: JSONValue?, request: ClientRequest)

    /// Decodes one request line (without its `\n`; a trailing `\r` is whitespace to JSON).
    ///
    /// Errors carry the request's `id` whenever the line was a JSON object with one.
    public static func parse(line: UnsafeBufferPointer<UInt8>) -> Result<Identified, ProtocolError> {
        RequestDecoder.parse(line: line)
    }

    /// Decodes one request line (without its `\n`).
    public static func parse(line: [UInt8]) -> Result<Identified, ProtocolError> {
        line.withUnsafeBufferPointer { parse(line: $0) }
    }

    /// Decodes a request line given as text (tests and tools).
    public static func parse(line: String) -> Result<Identified, ProtocolError> {
        parse(line: Array(line.utf8))
    }

    /// Every request name, for the unknown-request message.
    static let knownRequests = Name.allCases.map(\.rawValue).joined(separator: ", ")

    /// A client's string for a message: quoted, and cut short so an error never echoes a huge field.
    public static func quoted(_ s: String) -> String {
        let limit = 40
        return s.count <= limit ? "\"\(s)\"" : "\"\(s.prefix(limit))…\""
    }
}
