import CLinux
import Glibc

/// A non-blocking stream socket that its owner reads and writes from an epoll loop: a client of the
/// daemon, a browser's TCP connection to the web bridge, the bridge's own connection to the daemon.
/// Closed on deinit.
public final class StreamSocket {
    public let fd: Int32
    /// Registered for EPOLLOUT: bytes wait that the socket did not take yet (kept by the owner).
    public var waitsForWritable: Bool {
        get { waiting }
        set { waiting = newValue }
    }
    /// Read for every write by the one thread of the owner's loop: exclusivity unchecked, no call into the
    /// runtime. Behind accessors, as the attribute holds only for accesses compiled in this module.
    @exclusivity(unchecked) private var waiting = false

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
    /// full), or -1 when the peer is gone (`EPIPE`, `ECONNRESET`).
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        do {
            return try nonblockingSyscall("send", "socket", { send(fd, base, bytes.count, Int32(MSG_NOSIGNAL)) }) ?? 0
        } catch {
            return -1
        }
    }

    /// Bytes written that the peer has not read yet (`SIOCOUTQ`: for a Unix socket, what waits in the
    /// peer's receive queue, counted as the kernel accounts it, so 0 only once the peer read everything);
    /// nil where the kernel cannot tell.
    public var unreadByPeer: Int? {
        var n: Int32 = 0
        return pressured_unread_by_peer(fd, &n) == 0 ? Int(n) : nil
    }

    /// The most bytes one `send(2)` hands a Unix stream socket all or nothing: the kernel packs a send into
    /// buffers (skbs) of at most half the send buffer less 64 bytes, and of at most 32 KiB of pages after a
    /// head (`unix_stream_sendmsg`), and takes each buffer whole or not at all, so a send no longer than one
    /// is never cut. 32 KiB, or less where the send buffer is small.
    public func wholeSendLimit() -> Int {
        var size: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, &length) == 0, size > 0 else { return 4096 }
        return max(1024, min(32 * 1024, Int(size) / 2 - 64))
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
