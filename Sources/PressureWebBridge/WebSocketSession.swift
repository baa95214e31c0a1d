import PressureProtocol
import PressureWebSocket

/// One browser's WebSocket once upgraded, as a state machine over messages from the browser and lines
/// from the daemon; it queues the browser's frames (``queue``) and returns the rest as ``Action``s.
///
/// | state | event | next | actions |
/// |---|---|---|---|
/// | open | text message | open | forward the filtered request, or queue the refusal |
/// | open | binary message | closing | close 1003 |
/// | open | ping / pong | open | queue a pong / note the pong |
/// | open | close from the browser | closed | echo the close, close the daemon link |
/// | open | protocol error | closed | fail: close with its code (1002, 1007, 1009), close the daemon link |
/// | open | daemon line | open | queue it (a touch may be dropped); a gesture that does not fit: closed, 1008 |
/// | open | daemon gone | closing | close 1001 (or 1011 if it failed), pages reconnect |
/// | open | requests backlogged | closed | fail: close 1008, close the daemon link |
/// | open | tick | open / closed | ping when quiet; no pong for as long again: closed |
/// | closing | close from the browser | closed | — |
/// | closing | other message, daemon line, daemon gone, requests backlogged | closing | ignored |
/// | closing | protocol error, tick past the deadline | closed | — |
/// | any | browser gone | closed | close the daemon link |
/// | closed | anything | closed | — |
///
/// `closed`: write what is queued, then close the TCP connection (the server closes first, RFC 6455
/// §7.1.1); a browser that takes nothing by the deadline is dropped. Failing (§7.1.7) waits for no reply.
/// Time is the loop's monotonic clock in microseconds, passed in with each event.
public struct WebSocketSession: Sendable {
    public enum State: Hashable, Sendable {
        case open
        /// We sent a close frame and wait for the browser's, until `deadline`.
        case closing(deadline: Int64)
        /// Done: the queue is written out, or the connection dropped at `deadline`.
        case closed(deadline: Int64)
    }

    public enum Event: Sendable {
        case message(MessageAssembler.Message)
        case protocolError(WebSocketProtocolError)
        /// A line from the daemon, without its newline.
        case daemonLine(ArraySlice<UInt8>)
        /// The daemon closed our connection (`failed`: it could not be reached or broke, not a `bye`).
        case daemonGone(failed: Bool)
        case browserGone
        /// The page sends requests faster than the daemon reads them (the loop's bound was passed).
        case requestsBacklogged
        case tick
    }

    public enum Action: Hashable, Sendable {
        /// Write this request line to the daemon.
        case forward([UInt8])
        /// Close the Unix connection: the page's regions go with it.
        case closeDaemon
        case log(Log, String)
    }

    public enum Log: Hashable, Sendable { case info, warning, debug }

    public static let closeTimeout: Int64 = 5_000_000
    /// The bridge answers refusals itself; after this many it closes, as the daemon would (`too-many-errors`).
    public static let maximumRefusals = ProtocolError.maximumErrors

    public private(set) var state = State.open
    public var queue: BrowserQueue
    let filter: RequestFilter
    let pingInterval: Int64
    private var lastHeard: Int64
    private var pingSentAt: Int64? = nil
    private var refusals = 0
    /// The close code the session ended with, for the log.
    public private(set) var closeCode: WebSocketCloseCode? = nil

    public init(filter: RequestFilter, queueCapacity: Int, pingIntervalSeconds: Int, now: Int64) {
        self.filter = filter
        queue = BrowserQueue(capacity: queueCapacity)
        pingInterval = Int64(pingIntervalSeconds) * 1_000_000
        lastHeard = now
    }

    /// When the loop must next send `.tick`.
    public var deadline: Int64? {
        switch state {
        case .open: return pingSentAt.map { $0 + pingInterval } ?? lastHeard + pingInterval
        case .closing(let d), .closed(let d): return d
        }
    }

    public var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    public mutating func handle(_ event: Event, now: Int64) -> [Action] {
        switch (state, event) {
        case (.open, .message(let m)):
            lastHeard = now
            return received(m, now: now)
        case (.open, .protocolError(let e)):
            return fail(e.closeCode, e.description, now: now) + [.log(.info, "protocol error: \(e)")]
        case (.open, .daemonLine(let line)):
            switch queue.text(line, DaemonLineKind.of(line)) {
            case .queued, .coalesced, .dropped: return []
            case .overflow:
                queue.final(Self.tooSlowLine)
                return fail(.policyViolation, "too slow", now: now)
                    + [.log(.warning, "browser too slow: \(queue.pendingCount) bytes unread, disconnected")]
            }
        case (.open, .daemonGone(let failed)):
            let actions = startClosing(failed ? .internalError : .goingAway, failed ? "pressured failed" : "pressured stopped", now: now)
            return actions.filter { $0 != .closeDaemon }
        case (.open, .requestsBacklogged):
            return fail(.policyViolation, "requests faster than pressured reads", now: now)
                + [.log(.warning, "requests backlogged for pressured: disconnected")]
        case (.open, .tick):
            if let sent = pingSentAt, now >= sent + pingInterval {
                state = .closed(deadline: now)
                return [.closeDaemon, .log(.info, "no pong for \(pingInterval / 1_000_000) s: disconnected")]
            }
            if pingSentAt == nil, now >= lastHeard + pingInterval {
                pingSentAt = now
                queue.control(.ping, Array("pressured".utf8))
            }
            return []
        case (.closing, .message(.close)):
            state = .closed(deadline: now + Self.closeTimeout)
            return []
        case (.closing, .message), (.closing, .daemonLine), (.closing, .daemonGone), (.closing, .requestsBacklogged):
            return []
        case (.closing, .protocolError):
            state = .closed(deadline: now)
            return []
        case (.closing(let deadline), .tick):
            if now >= deadline { state = .closed(deadline: now) }
            return []
        case (.open, .browserGone):
            state = .closed(deadline: now)
            return [.closeDaemon]
        case (.closing, .browserGone):
            state = .closed(deadline: now)
            return []
        case (.closed, _):
            return []
        }
    }

    private mutating func received(_ message: MessageAssembler.Message, now: Int64) -> [Action] {
        switch message {
        case .text(let bytes):
            switch filter.filter(bytes) {
            case .forward(let line):
                return [.forward(line)]
            case .refuse(let line, let error):
                refusals += 1
                guard refusals < Self.maximumRefusals else {
                    queue.final(Array(line.dropLast()))
                    return fail(.policyViolation, "too many refused requests", now: now)
                }
                _ = queue.text(line.dropLast())
                return error.code == .notPermitted ? [.log(.info, "refused from \(filter.grant.origin): \(error.message)")] : []
            }
        case .binary:
            return startClosing(.unsupportedData, "requests are JSON text messages", now: now)
        case .ping(let payload):
            queue.control(.pong, payload)
            return []
        case .pong:
            pingSentAt = nil
            return []
        case .close(let code, _):
            // Echo the code (none for none), then close once it is written.
            closeCode = code ?? .noStatusReceived
            queue.control(.close, code.map { FrameEncoder.closePayload($0) } ?? [])
            state = .closed(deadline: now + Self.closeTimeout)
            return [.closeDaemon]
        }
    }

    /// Fails the connection (RFC 6455 §7.1.7): the close frame, then no waiting for the browser's.
    private mutating func fail(_ code: WebSocketCloseCode, _ reason: String, now: Int64) -> [Action] {
        closeCode = code
        queue.control(.close, FrameEncoder.closePayload(code, reason: reason))
        state = .closed(deadline: now + Self.closeTimeout)
        return [.closeDaemon]
    }

    private mutating func startClosing(_ code: WebSocketCloseCode, _ reason: String, now: Int64) -> [Action] {
        closeCode = code
        queue.control(.close, FrameEncoder.closePayload(code, reason: reason))
        state = .closing(deadline: now + Self.closeTimeout)
        return [.closeDaemon]
    }

    static let tooSlowLine: [UInt8] = {
        var line: [UInt8] = []
        ServerMessage.error(ProtocolError(
            code: .tooSlow, message: "the page stopped reading and an event no longer fits its queue", fatal: true))
            .append(to: &line)
        line.removeLast()
        return line
    }()
}
