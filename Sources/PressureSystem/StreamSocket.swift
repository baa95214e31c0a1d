import CLinux
import Glibc

/// A non-blocking stream socket that its owner reads and writes from an epoll loop: a client of the
/// daemon, a browser's TCP connection to the web bridge, the bridge's own connection to the daemon.
/// Closed on deinit.
public final class StreamSocket {
    public let fd: Int32
    /// Registered for EPOLLOUT: bytes wait that the socket did not take yet (kept by the owner).
    public var waitsForWritable = false

    /// Takes ownership of `fd`, which must be non-blocking.
    public init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    public enum ReadOutcome: Equatable, Sendable {
        /// This many bytes were read (at least one).
        case data(Int)
        /// Nothing to read now.
        case wouldBlock
        /// End of stream: the peer will send no more (it may still read: a half-close).
        case endOfStream
        /// A failure (`ECONNRESET` and the like) that ends the stream.
        case closed
    }

    /// One `read(2)` into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        do {
            guard let n = try nonblockingSyscall("read", "socket", { Glibc.read(fd, buffer.baseAddress, buffer.count) })
            else { return .wouldBlock }
            return n > 0 ? .data(n) : .endOfStream
        } catch {
            return .closed
        }
    }

    /// Writes as much of `bytes` as the socket takes now, without `SIGPIPE`: the count (0 when its buffer is
    /// full, or, made blocking, when the send timeout passed), or -1 when the peer is gone (`EPIPE`,
    /// `ECONNRESET`).
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        do {
            return try nonblockingSyscall("send", "socket", { send(fd, base, bytes.count, Int32(MSG_NOSIGNAL)) }) ?? 0
        } catch {
            return -1
        }
    }

    /// For last words at shutdown: blocking writes, bounded by a send timeout.
    public func makeBlocking(sendTimeoutMilliseconds ms: Int) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        var tv = timeval(tv_sec: ms / 1000, tv_usec: (ms % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Connects to the Unix socket at `path` without blocking (a Unix connect completes at once or fails:
    /// `ENOENT`/`ECONNREFUSED` when no one serves it, `EAGAIN` when its backlog is full).
    public static func connectUnix(_ path: String) throws(SystemError) -> StreamSocket {
        var addr = sockaddr_un()
        let length = pressured_sockaddr_un(&addr, path)
        guard length > 0 else { throw SystemError(call: "connect", subject: path, errno: ENAMETOOLONG) }
        let fd = try syscall("socket", path) {
            socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }
        let s = StreamSocket(fd: fd)
        _ = try syscall("connect", path) {
            withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(length)) }
            }
        }
        return s
    }
}
