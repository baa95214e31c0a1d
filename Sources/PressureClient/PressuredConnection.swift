import Glibc
import PressureProtocol

/// One connection to `pressured` (`docs/protocol.md`): the daemon's `hello`, requests that wait for their
/// answers, and the event stream.
///
/// ```swift
/// let connection = try await PressuredConnection.connect()
/// try await connection.subscribe(events: [.gestures, .devices])
/// for try await event in connection.events {
///     if case .gesture(let g, _, _) = event, g.gesture == .peek { showPreview(at: g.x, g.y) }
/// }
/// ```
///
/// Requests may be sent from any task at any time, also while another task iterates ``events``; events
/// that arrive while a request waits are kept in order. The connection does not come back by itself once
/// it ends: ``PressuredClient`` does that.
public final class PressuredConnection: Sendable {
    /// Where the daemon listens unless configured otherwise.
    public static let defaultSocketPath = "/run/pressured/pressured.sock"

    /// `$PRESSURED_SOCKET` when set and not empty, else ``defaultSocketPath``.
    public static var environmentSocketPath: String {
        if let p = getenv("PRESSURED_SOCKET") {
            let s = String(cString: p)
            if !s.isEmpty { return s }
        }
        return defaultSocketPath
    }

    /// The daemon's greeting: protocol, version, devices and settings at the time of connecting.
    public let hello: Hello
    /// The socket path connected to.
    public let path: String
    let core: ConnectionCore

    private init(core: ConnectionCore, hello: Hello) {
        self.core = core
        self.hello = hello
        path = core.path
    }

    deinit { core.close() }

    /// Connects to the daemon and waits for its `hello`.
    ///
    /// - Parameters:
    ///   - path: the socket (default ``environmentSocketPath``).
    ///   - helloTimeout: how long the daemon may take to greet.
    ///   - onLine: called on the connection's reading thread with every line exactly as received (without
    ///     its `\n`), `hello` and answers included, before it is decoded: for raw logging and
    ///     `pressurectl monitor --json`. Keep it short: the next line waits for it.
    public static func connect(
        path: String = environmentSocketPath, helloTimeout: Duration = .seconds(5),
        onLine: (@Sendable (_ line: [UInt8]) -> Void)? = nil
    ) async throws(PressuredClientError) -> PressuredConnection {
        let core = try ConnectionCore(path: path, helloTimeout: helloTimeout, onLine: onLine)
        try core.start()
        let hello = try await core.awaitHello()
        return PressuredConnection(core: core, hello: hello)
    }

    /// The events after ``subscribe(events:devices:)`` (and `device` `changed` / `settings` regardless).
    ///
    /// However the connection ends, the events end every peek and contact still open for the app: a
    /// `dismiss` for each open peek, then a `cancelled` for each open contact, each `synthesized: true`
    /// with the contact's last state (a daemon killed mid-peek sends neither). Then the waiting requests
    /// fail, and the sequence ends: normally after `bye` or ``close()``, else by throwing how the
    /// connection ended, ``PressuredClientError/connectionLost(_:)`` (not a clean stop) or a fatal
    /// ``PressuredClientError/daemon(code:message:fatal:)`` (`docs/protocol.md`, "When the connection
    /// ends").
    public var events: ClientEvents { ClientEvents(stream: core.stream, owner: self) }

    /// Closes the connection: waiting requests fail with ``PressuredClientError/closed`` and ``events``
    /// ends. Safe to call more than once and from any task.
    public func close() { core.close() }

    // MARK: Requests

    /// Starts, or replaces, the subscription; returns it as the daemon confirmed it.
    ///
    /// - Parameters:
    ///   - events: the kinds wanted (the daemon's default is gestures only).
    ///   - devices: device ids, or nil for all devices, including ones that appear later.
    @discardableResult
    public func subscribe(events: Set<EventKind> = [.gestures], devices: [Int]? = nil)
        async throws(PressuredClientError) -> Subscription
    {
        let subscription = Subscription(events: events, deviceIDs: devices.map(Set.init))
        return try await answer(.subscribe(subscription)) { if case .subscribe(let s) = $0 { s } else { nil } }
    }

    /// The daemon's devices now.
    public func devices() async throws(PressuredClientError) -> [DeviceInfo] {
        try await answer(.devices) { if case .devices(let d) = $0 { d } else { nil } }
    }

    /// A round trip; returns the daemon's monotonic clock.
    @discardableResult
    public func ping() async throws(PressuredClientError) -> Timestamp {
        try await answer(.ping) { if case .ping(let t) = $0 { t } else { nil } }
    }

    /// Changes settings (a control request: root or the daemon's control group only, else
    /// `not-permitted`); returns the new settings. Every client, this one included, also receives a
    /// `settings` event, and `device` `changed` for each device whose force capability changed.
    @discardableResult
    public func set(forceTouch: Bool? = nil, sensitivity: Sensitivity? = nil, haptics: Bool? = nil)
        async throws(PressuredClientError) -> PublicSettings
    {
        let change = SettingsChange(forceTouch: forceTouch, sensitivity: sensitivity, haptics: haptics)
        return try await answer(.set(change)) { if case .set(let s) = $0 { s } else { nil } }
    }

    /// Reads the configuration files again, as `SIGHUP` does (a control request); returns the settings
    /// now in force. A file the daemon cannot use is a `reload-failed` error, and the old configuration
    /// stays.
    @discardableResult
    public func reload() async throws(PressuredClientError) -> PublicSettings {
        try await answer(.reload) { if case .reload(let s) = $0 { s } else { nil } }
    }

    /// Forgets what a device (nil: every device) learned of its average touch (a control request);
    /// returns the devices that were learning and now start afresh.
    @discardableResult
    public func resetLearning(device: Int? = nil) async throws(PressuredClientError) -> [Int] {
        try await answer(.resetLearning(device: device)) { if case .resetLearning(let d) = $0 { d } else { nil } }
    }

    /// Any request, for requests newer than this library: `{"request":name,"id":…,fields…}`. Returns the
    /// whole `reply` object; an `error` answer throws ``PressuredClientError/daemon(code:message:fatal:)``.
    public func request(_ name: String, _ fields: [(String, JSONValue)] = []) async throws(PressuredClientError)
        -> JSONValue
    {
        try await core.request(name, fields)
    }

    /// Sends `request` and decodes its reply with the protocol's decoder; `pick` takes the part wanted
    /// (nil: the daemon answered with a reply of another kind).
    private func answer<T>(_ request: ClientRequest, _ pick: (ServerMessage.Reply) -> T?)
        async throws(PressuredClientError) -> T
    {
        let reply = try await core.request(request)
        let message: ServerMessage
        do throws(MessageDecodingError) { message = try ServerMessage(json: reply) } catch {
            throw .invalidMessage("reply: \(error.message)")
        }
        guard case .reply(_, let body) = message, let value = pick(body) else {
            throw .invalidMessage("reply: not the answer to '\(request.name)'")
        }
        return value
    }
}
