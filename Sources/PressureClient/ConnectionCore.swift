import Glibc
import PressureProtocol
import Synchronization

/// The machinery behind a ``PressuredConnection``: a thread that reads the daemon's lines, hands answers to
/// the requests waiting for them (matched by `id`) and everything else to the event stream.
///
/// The thread, not the public connection object, owns this core, so dropping the last reference to a
/// ``PressuredConnection`` can still shut the socket down (its `deinit`), which ends the thread.
final class ConnectionCore: Sendable {
    typealias Answer = CheckedContinuation<Result<JSONValue, PressuredClientError>, Never>
    typealias HelloWaiter = CheckedContinuation<Result<Hello, PressuredClientError>, Never>

    /// A line longer than this is not the protocol (the largest real line, `hello` with many devices, is a
    /// few KiB): refusing it bounds the memory a broken peer can make us use.
    static let maximumLineLength = 1 << 20

    struct State {
        var nextID = 1
        var pending: [Int: Answer] = [:]
        var helloWaiter: HelloWaiter? = nil
        /// The hello's outcome when it came before anyone waited for it.
        var helloResult: Result<Hello, PressuredClientError>? = nil
        /// Set once the reading thread has stopped: every later request fails with it.
        var ended: PressuredClientError? = nil
        var closedByUs = false
        /// A fatal `error` the daemon sent before closing: the reason the connection ends.
        var fatal: PressuredClientError? = nil
        var byeReason: String? = nil
        /// What the connection's end must end for the app: only the reading thread uses it.
        var open = OpenTouches()

        /// How the connection ended, or would if it ended now, given the failure that ends it: this side
        /// closed it, the daemon let it go (fatal) or said `bye`, else `failure` (a lost connection).
        func endingReason(_ failure: PressuredClientError) -> PressuredClientError {
            if closedByUs { return .closed }
            if let fatal { return fatal }
            if let byeReason { return .disconnected("the daemon said bye (\(byeReason))") }
            return failure
        }
    }

    let socket: UnixSocket
    let path: String
    let state = Mutex(State())
    let stream: AsyncThrowingStream<ClientEvent, any Error>
    private let continuation: AsyncThrowingStream<ClientEvent, any Error>.Continuation
    private let onLine: (@Sendable ([UInt8]) -> Void)?
    private let helloTimeout: Duration

    init(path: String, helloTimeout: Duration, onLine: (@Sendable ([UInt8]) -> Void)?) throws(PressuredClientError) {
        self.path = path
        socket = try UnixSocket(path: path, sendTimeout: .seconds(10))
        self.onLine = onLine
        self.helloTimeout = helloTimeout
        // Unbounded: replies travel the same socket as events, so a reader that stopped at a full buffer
        // would leave a request waiting for ever while the app waits for the request.
        (stream, continuation) = AsyncThrowingStream.makeStream(of: ClientEvent.self)
    }

    func start() throws(PressuredClientError) {
        try startThread { [self] in self.readLoop() }
    }

    // MARK: Requests

    /// Waits for the daemon's `hello` (the reading thread times out after `helloTimeout`).
    func awaitHello() async throws(PressuredClientError) -> Hello {
        let result = await withCheckedContinuation { (waiter: HelloWaiter) in
            let ready: Result<Hello, PressuredClientError>? = state.withLock { s in
                if let r = s.helloResult { return r }
                s.helloWaiter = waiter
                return nil
            }
            if let ready { waiter.resume(returning: ready) }
        }
        return try result.get()
    }

    /// Sends `{"request":name,"id":N,…fields}` and waits for its `reply` (or typed `error`).
    func request(_ name: String, _ fields: [(String, JSONValue)]) async throws(PressuredClientError) -> JSONValue {
        try await send { id, line in
            let members: [(String, JSONValue)] = [("request", .string(name)), ("id", .number(Double(id)))]
            JSONWriter.append(.object(members + fields), to: &line)
            line.append(0x0A)
        }
    }

    /// Sends a request the protocol knows, with the next `id`, and waits for its `reply` (or typed `error`).
    func request(_ request: ClientRequest) async throws(PressuredClientError) -> JSONValue {
        try await send { id, line in request.append(id: .number(Double(id)), to: &line) }
    }

    /// Registers the next `id`, sends the line `encode` writes for it, and waits for the answer.
    private func send(_ encode: (Int, inout [UInt8]) -> Void) async throws(PressuredClientError) -> JSONValue {
        let result = await withCheckedContinuation { (answer: Answer) in
            let registered: Result<Int, PressuredClientError> = state.withLock { s in
                if let ended = s.ended { return .failure(ended) }
                let id = s.nextID
                s.nextID += 1
                // Registered before sending, so even an instant answer finds its waiter.
                s.pending[id] = answer
                return .success(id)
            }
            let id: Int
            switch registered {
            case .failure(let e):
                answer.resume(returning: .failure(e))
                return
            case .success(let i): id = i
            }
            var line: [UInt8] = []
            encode(id, &line)
            do throws(PressuredClientError) {
                try socket.send(line)
            } catch {
                // The reading thread may have failed the request already as it stopped: resume only once.
                // The write fails as the connection ends: the request fails with how it ended.
                let failed: (Answer?, PressuredClientError) = state.withLock { s in
                    (s.pending.removeValue(forKey: id), s.ended ?? s.endingReason(error))
                }
                failed.0?.resume(returning: .failure(failed.1))
            }
        }
        return try result.get()
    }

    /// Closes from this side: the thread sees the end of the stream and winds everything down.
    func close() {
        state.withLock { $0.closedByUs = true }
        socket.shutdown()
    }

    // MARK: The reading thread

    private func readLoop() {
        socket.setTimeout(SO_RCVTIMEO, helloTimeout)
        var sawHello = false
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = chunk.withUnsafeMutableBytes { socket.receive(into: $0) }
            if n == 0 { return end(.connectionLost("the daemon closed the connection")) }
            if n < 0 {
                let e = Int32(-n)
                if !sawHello && (e == EAGAIN || e == EWOULDBLOCK) {
                    return end(.timedOut("no hello from the daemon at \(path) within \(helloTimeout)"))
                }
                return end(.connectionLost("read failed: \(String(cString: strerror(e)))"))
            }
            buffer.append(contentsOf: chunk[0..<n])
            var start = 0
            while let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                if let failure = handle(line, sawHello: &sawHello) { return end(failure) }
            }
            buffer.removeFirst(start)
            if buffer.count > Self.maximumLineLength {
                return end(.invalidMessage("a line longer than \(Self.maximumLineLength) bytes"))
            }
        }
    }

    /// One line; an error when the connection cannot go on.
    private func handle(_ line: [UInt8], sawHello: inout Bool) -> PressuredClientError? {
        onLine?(line)
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch {
            return .invalidMessage("not JSON: \(error)")
        }
        let type = value["type"]?.stringValue
        guard sawHello else {
            // A daemon that turns the connection away (`too-many-clients`) says why instead of hello.
            if type == "error" {
                return .daemon(
                    code: value["error"]?.stringValue ?? "", message: value["message"]?.stringValue ?? "",
                    fatal: value["fatal"]?.boolValue ?? false)
            }
            guard type == "hello" else { return .invalidMessage("the first line is not a hello") }
            let hello: Hello
            do throws(MessageDecodingError) {
                guard case .hello(let h) = try ServerMessage(json: value) else { throw MessageDecodingError("not a hello") }
                hello = h
            } catch {
                return .invalidMessage("hello: \(error.message)")
            }
            guard hello.protocolVersion == ServerMessage.protocolVersion else {
                return .unsupportedProtocol(hello.protocolVersion)
            }
            sawHello = true
            socket.setTimeout(SO_RCVTIMEO, nil)
            resolveHello(.success(hello))
            return nil
        }
        switch type {
        case "reply", "error":
            // After a fatal error the daemon closes the connection; ending it here too means nothing waits
            // on a daemon that, against the protocol, kept it open.
            if let fatal = answer(value, isError: type == "error") { return fatal }
        default:
            let event = ClientEvent(value)
            state.withLock { s in
                s.open.saw(event)
                if case .bye(let reason) = event { s.byeReason = reason }
            }
            continuation.yield(event)
        }
        return nil
    }

    /// Hands a `reply` or `error` to the request with its `id`. Returns a fatal error, which is also the
    /// reason the connection ends.
    private func answer(_ value: JSONValue, isError: Bool) -> PressuredClientError? {
        let id = value["id"]?.exactInteger
        var result: Result<JSONValue, PressuredClientError> = .success(value)
        var fatal: PressuredClientError? = nil
        if isError {
            let error = PressuredClientError.daemon(
                code: value["error"]?.stringValue ?? "", message: value["message"]?.stringValue ?? "",
                fatal: value["fatal"]?.boolValue ?? false)
            result = .failure(error)
            if value["fatal"]?.boolValue == true {
                fatal = error
                state.withLock { $0.fatal = error }
            }
        }
        // An answer to no request of ours (no `id`, or one we never sent) has nobody to go to.
        if let id, let waiter = state.withLock({ $0.pending.removeValue(forKey: id) }) {
            waiter.resume(returning: result)
        }
        return fatal
    }

    private func resolveHello(_ result: Result<Hello, PressuredClientError>) {
        let waiter: HelloWaiter? = state.withLock { s in
            guard s.helloResult == nil else { return nil }
            s.helloResult = result
            defer { s.helloWaiter = nil }
            return s.helloWaiter
        }
        waiter?.resume(returning: result)
    }

    /// The thread's last act (`docs/protocol.md`, "When the connection ends"): end the peeks, then the
    /// contacts, still open for the app (a daemon killed mid-peek ended none), fail whoever waits, end the
    /// event stream, shut the socket down (the descriptor itself closes when the last reference to the
    /// socket goes).
    private func end(_ error: PressuredClientError) {
        let (reason, ends, waiters, normal): (PressuredClientError, [ClientEvent], [Answer], Bool) = state.withLock { s in
            let normal = s.closedByUs || s.byeReason != nil
            let reason = s.endingReason(error)
            s.ended = reason
            let waiters = s.pending.sorted { $0.key < $1.key }.map(\.value)  // in the order they were sent
            s.pending = [:]
            return (reason, s.open.endAll(), waiters, normal)
        }
        resolveHello(.failure(reason))
        for e in ends { continuation.yield(e) }
        for w in waiters { w.resume(returning: .failure(reason)) }
        if normal {
            continuation.finish()
        } else {
            continuation.finish(throwing: reason)
        }
        socket.shutdown()
    }
}
