import Glibc
import PressureCore

/// One connection to `pressured` (`docs/protocol.md`): the daemon's `hello`, requests that wait for their
/// answers, and the event stream.
///
/// ```swift
/// let connection = try await PressuredConnection.connect()
/// try await connection.subscribe(events: [.gestures, .devices])
/// for try await event in connection.events {
///     if case .gesture(let g) = event, g.kind == .peek { showPreview(at: g.x, g.y) }
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
        // In a fixed order, so the request line is the same every time.
        var fields: [(String, JSONValue)] = [
            ("events", .array(EventKind.allCases.filter(events.contains).map { .string($0.rawValue) }))
        ]
        if let devices { fields.append(("devices", .array(devices.map { .number(Double($0)) }))) }
        let reply = try await request("subscribe", fields)
        return try Self.decodeReply(reply) { f throws(DecodeFailure) in
            var s = Subscription(gestures: false)
            for name in try f.array("events") {
                switch EventKind(rawValue: name.stringValue ?? "") {
                case .gestures: s.gestures = true
                case .touches: s.touches = true
                case .devices: s.devices = true
                case nil: break  // a kind newer than this library
                }
            }
            if let ids = f.value["devices"]?.arrayValue { s.deviceIDs = Set(ids.compactMap(\.exactInteger)) }
            return s
        }
    }

    /// The daemon's devices now.
    public func devices() async throws(PressuredClientError) -> [PressuredDevice] {
        let reply = try await request("devices")
        return try Self.decodeReply(reply) { f throws(DecodeFailure) in try PressuredDevice.list(try f.array("devices")) }
    }

    /// A round trip; returns the daemon's monotonic clock.
    @discardableResult
    public func ping() async throws(PressuredClientError) -> Timestamp {
        let reply = try await request("ping")
        return try Self.decodeReply(reply) { f throws(DecodeFailure) in try f.timestamp("time") }
    }

    /// Changes settings (a control request: root or the daemon's control group only, else
    /// `not-permitted`); returns the new settings. Every client, this one included, also receives a
    /// `settings` event, and `device` `changed` for each device whose force capability changed.
    @discardableResult
    public func set(forceTouch: Bool? = nil, sensitivity: Sensitivity? = nil)
        async throws(PressuredClientError) -> PublicSettings
    {
        var fields: [(String, JSONValue)] = []
        if let forceTouch { fields.append(("forceTouch", .bool(forceTouch))) }
        if let sensitivity { fields.append(("sensitivity", .string(sensitivity.rawValue))) }
        let reply = try await request("set", fields)
        return try Self.decodeReply(reply) { f throws(DecodeFailure) in try PublicSettings(try f.object("settings")) }
    }

    /// Any request, for requests newer than this library: `{"request":name,"id":…,fields…}`. Returns the
    /// whole `reply` object; an `error` answer throws ``PressuredClientError/daemon(code:message:fatal:)``.
    public func request(_ name: String, _ fields: [(String, JSONValue)] = []) async throws(PressuredClientError)
        -> JSONValue
    {
        try await core.request(name, fields)
    }

    private static func decodeReply<T>(_ reply: JSONValue, _ body: (MessageFields) throws(DecodeFailure) -> T)
        throws(PressuredClientError) -> T
    {
        do throws(DecodeFailure) {
            return try body(try MessageFields(reply, what: "a reply"))
        } catch {
            throw .invalidMessage("reply: \(error.message)")
        }
    }
}
