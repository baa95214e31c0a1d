import CLinux
import Glibc
import PressureLinux

/// A non-blocking stream socket the bridge owns: a browser's TCP connection or the bridge's Unix
/// connection to the daemon. Closed on deinit.
final class StreamSocket {
    let fd: Int32
    /// Registered for EPOLLOUT: bytes wait that the socket did not take yet.
    var waitsForWritable = false

    init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    enum ReadOutcome: Equatable {
        case data(Int)
        case wouldBlock
        case closed
    }

    /// One read into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        do {
            guard let n = try nonblockingSyscall("read", "socket", { Glibc.read(fd, buffer.baseAddress, buffer.count) }) else {
                return .wouldBlock
            }
            return n > 0 ? .data(n) : .closed
        } catch {
            return .closed  // ECONNRESET and the like: gone, as with an orderly hang-up
        }
    }

    /// Writes what the socket takes now: the count, or -1 when the peer is gone.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        do {
            return try nonblockingSyscall("send", "socket", { send(fd, base, bytes.count, Int32(MSG_NOSIGNAL)) }) ?? 0
        } catch {
            return -1
        }
    }

    /// Connects to the Unix socket at `path` without blocking (a Unix connect completes at once or fails:
    /// `ENOENT`/`ECONNREFUSED` when no daemon serves it, `EAGAIN` when its backlog is full).
    static func connectUnix(_ path: String) throws(SystemError) -> StreamSocket {
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
