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
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
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
