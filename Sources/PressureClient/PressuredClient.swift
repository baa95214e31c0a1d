import PressureProtocol
import Synchronization

/// A connection to `pressured` that stays up: when the daemon stops, restarts or the connection breaks,
/// it reconnects with exponential backoff, sends the subscription again, and yields
/// ``ClientEvent/reconnected(_:)`` so the app re-reads device capabilities.
///
/// ```swift
/// let client = PressuredClient(options: .init(events: [.gestures, .devices]))
/// _ = try await client.start()
/// for try await event in client.events {
///     if case .reconnected(let hello) = event { reconfigure(for: hello.devices) }
/// }
/// ```
///
/// ``events`` ends after ``close()``, when iteration stops, or by throwing
/// ``PressuredClientError/gaveUp(attempts:lastError:)`` once ``Options/maximumAttempts`` runs out.
/// Events in flight when a connection dies are lost with it: the `disconnected`/`reconnected` pair says so,
/// and the peeks and contacts it left open end before `disconnected`, with synthesized ends
/// (``ClientEvent/isSynthesized``; `docs/protocol.md`, "When the connection ends").
public final class PressuredClient: Sendable {
    /// How to connect and when to retry.
    public struct Options: Sendable {
        public var path: String
        /// The subscription sent on every connection (``PressuredClient/subscribe(events:devices:)``
        /// replaces it).
        public var events: Set<EventKind>
        public var devices: [Int]?
        /// The wait after the first failed attempt of an outage; doubled after each further failure…
        public var initialBackoff: Duration
        /// …up to this.
        public var maximumBackoff: Duration
        /// Failed attempts in a row before giving up; nil to keep trying for ever (a kiosk app outliving
        /// daemon upgrades).
        public var maximumAttempts: Int?
        public var helloTimeout: Duration
        /// See ``PressuredConnection/connect(path:helloTimeout:onLine:)``.
        public var onLine: (@Sendable (_ line: [UInt8]) -> Void)?

        public init(
            path: String = PressuredConnection.environmentSocketPath, events: Set<EventKind> = [.gestures],
            devices: [Int]? = nil, initialBackoff: Duration = .milliseconds(50),
            maximumBackoff: Duration = .seconds(5), maximumAttempts: Int? = nil, helloTimeout: Duration = .seconds(5),
            onLine: (@Sendable (_ line: [UInt8]) -> Void)? = nil
        ) {
            self.path = path
            self.events = events
            self.devices = devices
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.maximumAttempts = maximumAttempts
            self.helloTimeout = helloTimeout
            self.onLine = onLine
        }
    }

    let core: ReconnectingCore

    public init(options: Options = Options()) {
        core = ReconnectingCore(options: options)
    }

    deinit { core.close() }

    /// Connects (retrying as ``Options`` say: the daemon may start after the app), subscribes, and starts
    /// keeping the connection up. Returns the first `hello`; later ones come as
    /// ``ClientEvent/reconnected(_:)``. Calling it again returns the current connection's `hello` (or throws
    /// ``PressuredClientError/notConnected`` between connections).
    @discardableResult
    public func start() async throws(PressuredClientError) -> Hello {
        try await core.start()
    }

    /// Every connection's events, with ``ClientEvent/disconnected(_:)`` and ``ClientEvent/reconnected(_:)``
    /// between them. Iterate it from one task.
    public var events: ClientEvents { ClientEvents(stream: core.stream, owner: self) }

    /// The connection now, nil between connections. Requests on it fail once it is gone.
    public var connection: PressuredConnection? { core.state.withLock { $0.connection } }

    /// The current connection's `hello`, nil between connections.
    public var hello: Hello? { connection?.hello }

    /// Replaces the subscription, now (when connected) and on every later connection.
    @discardableResult
    public func subscribe(events: Set<EventKind>, devices: [Int]? = nil) async throws(PressuredClientError)
        -> Subscription
    {
        let connection = core.state.withLock { s in
            s.events = events
            s.devices = devices
            return s.connection
        }
        guard let connection else { throw .notConnected }
        return try await connection.subscribe(events: events, devices: devices)
    }

    /// ``PressuredConnection/devices()`` on the current connection.
    public func devices() async throws(PressuredClientError) -> [DeviceInfo] {
        try await current().devices()
    }

    /// ``PressuredConnection/ping()`` on the current connection.
    @discardableResult
    public func ping() async throws(PressuredClientError) -> Timestamp {
        try await current().ping()
    }

    /// ``PressuredConnection/set(forceTouch:sensitivity:haptics:)`` on the current connection.
    @discardableResult
    public func set(forceTouch: Bool? = nil, sensitivity: Sensitivity? = nil, haptics: Bool? = nil)
        async throws(PressuredClientError) -> PublicSettings
    {
        try await current().set(forceTouch: forceTouch, sensitivity: sensitivity, haptics: haptics)
    }

    /// Stops: closes the connection, stops reconnecting, ends ``events``. Safe to call more than once.
    public func close() { core.close() }

    private func current() throws(PressuredClientError) -> PressuredConnection {
        guard let c = connection else { throw .notConnected }
        return c
    }
}

/// The reconnection loop, owned by its task rather than by the public ``PressuredClient`` so that dropping
/// the client (its `deinit`) still stops everything.
final class ReconnectingCore: Sendable {
    struct State {
        var connection: PressuredConnection? = nil
        var events: Set<EventKind>
        var devices: [Int]?
        var task: Task<Void, Never>? = nil
        var started = false
        var closed = false
    }

    let options: PressuredClient.Options
    let state: Mutex<State>
    let stream: AsyncThrowingStream<ClientEvent, any Error>
    private let continuation: AsyncThrowingStream<ClientEvent, any Error>.Continuation

    init(options: PressuredClient.Options) {
        self.options = options
        state = Mutex(State(events: options.events, devices: options.devices))
        (stream, continuation) = AsyncThrowingStream.makeStream(of: ClientEvent.self)
        // A consumer that stops listening (its task cancelled) wants no more reconnecting on its behalf.
        continuation.onTermination = { [weak self] _ in self?.close() }
    }

    func start() async throws(PressuredClientError) -> Hello {
        let alreadyStarted = state.withLock { s in
            defer { s.started = true }
            return s.started
        }
        if alreadyStarted {
            // Starting twice starts nothing new: the caller gets the greeting of the connection now.
            guard let hello = state.withLock({ $0.connection?.hello }) else { throw .notConnected }
            return hello
        }
        let first: PressuredConnection
        do {
            first = try await connectWithBackoff()
        } catch {
            continuation.finish(throwing: error)
            throw error
        }
        let task = Task { [self] in await self.keepConnected(first) }
        let closed = state.withLock { s in
            s.task = task
            return s.closed
        }
        if closed { task.cancel() }
        return first.hello
    }

    func close() {
        let (task, connection): (Task<Void, Never>?, PressuredConnection?) = state.withLock { s in
            s.closed = true
            return (s.task, s.connection)
        }
        task?.cancel()
        connection?.close()
        // Ends the stream at once when no loop is running to do it (never started, or gave up).
        if task == nil { continuation.finish() }
    }

    /// Pumps each connection's events into the stream; reconnects when one ends.
    private func keepConnected(_ first: PressuredConnection) async {
        var connection = first
        while true {
            var reason = PressuredClientError.disconnected("the daemon ended the connection")
            do {
                for try await event in connection.events {
                    if case .bye(let why) = event { reason = .disconnected("the daemon said bye (\(why))") }
                    continuation.yield(event)
                }
            } catch {
                reason = error
            }
            let closed = state.withLock { s in
                s.connection = nil
                return s.closed
            }
            if closed || Task.isCancelled { return continuation.finish() }
            continuation.yield(.disconnected(reason))
            do {
                connection = try await connectWithBackoff()
            } catch {
                if error == .closed { return continuation.finish() }
                return continuation.finish(throwing: error)
            }
            continuation.yield(.reconnected(connection.hello))
        }
    }

    /// Connects and subscribes, retrying with exponential backoff; the connection is published in `state`
    /// only once subscribed.
    private func connectWithBackoff() async throws(PressuredClientError) -> PressuredConnection {
        var delay = options.initialBackoff
        var attempts = 0
        while true {
            if state.withLock({ $0.closed }) || Task.isCancelled { throw .closed }
            attempts += 1
            var lastError: PressuredClientError
            do throws(PressuredClientError) {
                let c = try await PressuredConnection.connect(
                    path: options.path, helloTimeout: options.helloTimeout, onLine: options.onLine)
                let (events, devices) = state.withLock { ($0.events, $0.devices) }
                try await c.subscribe(events: events, devices: devices)
                let closed = state.withLock { s in
                    if !s.closed { s.connection = c }
                    return s.closed
                }
                if closed {
                    c.close()
                    throw .closed
                }
                return c
            } catch {
                // The daemon refusing the subscription itself is the app's mistake: retrying cannot fix it.
                if case .daemon(_, _, fatal: false) = error { throw error }
                if error == .closed { throw error }
                lastError = error
            }
            if let limit = options.maximumAttempts, attempts >= limit {
                throw .gaveUp(attempts: attempts, lastError: lastError.description)
            }
            do { try await Task.sleep(for: delay) } catch { throw .closed }
            delay = min(delay * 2, options.maximumBackoff)
        }
    }
}
