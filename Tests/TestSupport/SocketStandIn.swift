import Glibc

/// A listening Unix socket that stands where the daemon's will be and hangs up on every connection, so a
/// test can see that a client is trying to connect (``hangUpOnNext(seconds:)``) while no daemon is there.
/// A client meets it as a daemon that closed before its hello: a failed attempt, as for a missing socket.
public final class SocketStandIn {
    public let path: String
    private let fd: Int32
    private var closed = false

    public init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        let bound = UnixSocketAddress.with(path) { bind(fd, $0, $1) }
        guard bound == 0, listen(fd, 8) == 0 else {
            let e = errno
            Glibc.close(fd)
            throw CannotListen(path: path, errno: e)
        }
    }

    /// Waits at most `seconds` for a client to connect, and hangs up on it; false when none came.
    public func hangUpOnNext(seconds: Double = 10) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(seconds * 1000)) > 0 else { return false }
        let client = accept(fd, nil, nil)
        guard client >= 0 else { return false }
        Glibc.close(client)
        return true
    }

    /// Stops listening and removes the socket file, so the path is free for the daemon.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
        unlink(path)
    }

    deinit { close() }

    public struct CannotListen: Error, CustomStringConvertible {
        public var path: String
        public var errno: Int32
        public var description: String { "listen on \(path): \(String(cString: strerror(errno)))" }
    }
}
