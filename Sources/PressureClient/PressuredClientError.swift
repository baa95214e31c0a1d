import Glibc
import PressureProtocol

/// Everything that can go wrong talking to `pressured`: connecting, the daemon's `error` answers, and the
/// connection ending.
public enum PressuredClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `socket(2)` or `connect(2)` failed (`ENOENT`: no daemon there; `EACCES`: not in its group…).
    case cannotConnect(path: String, errno: Int32)
    /// The socket path does not fit a `sockaddr_un` (107 bytes on Linux).
    case pathTooLong(String)
    /// The daemon did not send `hello` within the time allowed.
    case timedOut(String)
    /// The daemon speaks an incompatible protocol version.
    case unsupportedProtocol(Int)
    /// The peer sent something that is not the protocol (not JSON lines, no `hello`, a huge line…).
    case invalidMessage(String)
    /// An `error` from the daemon. `code` is the wire string (`not-permitted`, `invalid-argument`…; see
    /// ``protocolCode``); after a `fatal` one the daemon closes the connection.
    case daemon(code: String, message: String, fatal: Bool)
    /// The connection ended cleanly: the daemon said `bye` (or this library's peer went away before its
    /// `hello`).
    case disconnected(String)
    /// The connection was lost, not a clean stop: it ended without `bye` or a fatal error (the daemon was
    /// killed or crashed, the socket reset, a read or write failed). A request waiting fails with it: no
    /// answer will come, and whether the daemon acted on it is unknown.
    case connectionLost(String)
    /// This side closed the connection (``PressuredConnection/close()``, ``PressuredClient/close()``).
    case closed
    /// ``PressuredClient`` is between connections: the request was not sent.
    case notConnected
    /// ``PressuredClient`` gave up after its configured number of connection attempts.
    case gaveUp(attempts: Int, lastError: String)

    /// The daemon's error code as the core knows it; nil for other errors and for codes newer than this
    /// library.
    public var protocolCode: ProtocolError.Code? {
        if case .daemon(let code, _, _) = self { return ProtocolError.Code(rawValue: code) }
        return nil
    }

    public var description: String {
        switch self {
        case .cannotConnect(let path, let e): return "cannot connect to \(path): \(String(cString: strerror(e)))"
        case .pathTooLong(let path): return "socket path too long: \(path)"
        case .timedOut(let what): return "timed out: \(what)"
        case .unsupportedProtocol(let v):
            return "the daemon speaks protocol \(v); this client speaks \(ServerMessage.protocolVersion)"
        case .invalidMessage(let what): return "invalid message from the daemon: \(what)"
        case .daemon(let code, let message, let fatal):
            return "\(code): \(message)" + (fatal ? " (the daemon closed the connection)" : "")
        case .disconnected(let why): return "disconnected: \(why)"
        case .connectionLost(let why):
            return "connection lost without a bye (\(why)): no answer will come, and whether the daemon acted on a request waiting is unknown"
        case .closed: return "the connection was closed"
        case .notConnected: return "not connected to pressured"
        case .gaveUp(let attempts, let last): return "gave up after \(attempts) connection attempts: \(last)"
        }
    }

    /// Maps whatever an `AsyncThrowingStream` hands back: the stream is only ever finished with this type.
    init(_ error: any Error) {
        if let e = error as? PressuredClientError {
            self = e
        } else if error is CancellationError {
            self = .closed
        } else {
            self = .disconnected("\(error)")
        }
    }
}
