import CLinux
import Glibc

/// Why the daemon's socket could not be set up.
public enum ListenerError: Error, CustomStringConvertible {
    case system(SystemError)
    /// Another pressured answers on the path.
    case alreadyServed(String)
    case pathTooLong(String)
    case unknownGroup(String)

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .alreadyServed(let p): return "\(p): another pressured is already serving this socket; stop it or pass --socket"
        case .pathTooLong(let p): return "\(p): socket path too long for a Unix socket"
        case .unknownGroup(let g): return "no such group '\(g)' (--group)"
        }
    }
}

/// The listening Unix stream socket, mode 0660 and optionally owned by a group. A stale socket file (no
/// one answers) is replaced; a live one means another daemon is serving, and we refuse to start.
public final class UnixListener {
    public let fd: Int32
    public let path: String
    /// Whether we created the file (and so remove it on exit); false for an inherited (socket-activated) fd.
    let ownsPath: Bool

    public init(path: String, group: String?) throws(ListenerError) {
        self.path = path
        var addr = sockaddr_un()
        let length = pressured_sockaddr_un(&addr, path)
        guard length > 0 else { throw .pathTooLong(path) }
        var gid: gid_t? = nil
        if let group {
            guard let g = getgrnam(group) else { throw .unknownGroup(group) }
            gid = g.pointee.gr_gid
        }
        if Self.someoneAnswers(&addr, length) { throw .alreadyServed(path) }
        // Bind, set the mode, listen on a temporary name, then rename onto the path: a client that connects
        // as soon as the file exists must find a listening socket, not get ECONNREFUSED.
        let temporary = path + ".\(getpid()).new"
        var tempAddr = sockaddr_un()
        let tempLength = pressured_sockaddr_un(&tempAddr, temporary)
        guard tempLength > 0 else { throw .pathTooLong(temporary) }
        unlink(temporary)
        let s: Int32
        do {
            s = try syscall("socket", path) {
                socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
        } catch { throw .system(error) }
        do {
            // umask would otherwise decide the mode in the window before chmod.
            let old = umask(0o117)
            defer { umask(old) }
            _ = try syscall("bind", temporary) {
                withUnsafePointer(to: &tempAddr) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(tempLength)) }
                }
            }
            _ = try syscall("chmod", temporary) { chmod(temporary, 0o660) }
            // Only when the file did not get the group already: under pressured.service (Group=pressured) it
            // has, and chown is refused there anyway (SystemCallFilter=~@privileged takes @chown).
            var made = stat()
            if let gid, stat(temporary, &made) != 0 || made.st_gid != gid {
                _ = try syscall("chown", temporary) { chown(temporary, uid_t.max, gid) }
            }
            _ = try syscall("listen", temporary) { listen(s, 64) }
            // Replaces a stale socket file, if any, in one step.
            _ = try syscall("rename", path) { rename(temporary, path) }
        } catch {
            close(s)
            unlink(temporary)
            throw .system(error)
        }
        fd = s
        ownsPath = true
    }

    /// A socket handed over by systemd (`LISTEN_FDS`).
    public init(inheritedFD: Int32, path: String) {
        fd = inheritedFD
        self.path = path
        ownsPath = false
        let flags = fcntl(inheritedFD, F_GETFL)
        _ = fcntl(inheritedFD, F_SETFL, flags | O_NONBLOCK)
    }

    deinit { stop() }

    private var stopped = false

    /// Closes the socket and removes the file we created (main exits without running deinits).
    public func stop() {
        guard !stopped else { return }
        stopped = true
        close(fd)
        if ownsPath { unlink(path) }
    }

    private static func someoneAnswers(_ addr: inout sockaddr_un, _ length: Int32) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(length)) }
        }
        return r == 0
    }

    /// Accepts one pending connection, non-blocking; nil when none is waiting.
    public func accept() -> ClientConnection? {
        let c = pressured_accept(fd)
        guard c >= 0 else { return nil }
        return ClientConnection(fd: c)
    }
}

/// Who is on the other end of a client socket (`SO_PEERCRED`, `SO_PEERGROUPS`).
public struct PeerCredentials: Equatable, Sendable {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    public var groups: [UInt32]

    /// Root, the daemon's own user, or a member of `controlGroup` may change settings.
    public func mayControl(controlGroup: UInt32?) -> Bool {
        if uid == 0 || uid == getuid() { return true }
        guard let g = controlGroup else { return false }
        return gid == g || groups.contains(g)
    }
}

/// One client's socket and the bytes it sent that do not yet make a line.
public final class ClientConnection {
    public let fd: Int32
    var pending: [UInt8] = []
    /// Registered for EPOLLOUT (bytes are queued that the socket did not take yet).
    var waitsForWritable = false
    /// The longest request line accepted (`docs/protocol.md`).
    public static let maximumLine = 64 * 1024

    init(fd: Int32) {
        self.fd = fd
        pending.reserveCapacity(1024)
    }

    deinit { close(fd) }

    public func credentials() -> PeerCredentials? {
        var cred = pressured_ucred()
        guard pressured_peer_credentials(fd, &cred) == 0 else { return nil }
        var groups = [gid_t](repeating: 0, count: 64)
        var glen = socklen_t(groups.count * MemoryLayout<gid_t>.size)
        let ok = groups.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, $0.baseAddress, &glen) } == 0
        let count = ok ? Int(glen) / MemoryLayout<gid_t>.size : 0
        return PeerCredentials(pid: cred.pid, uid: cred.uid, gid: cred.gid, groups: Array(groups.prefix(count)))
    }

    public enum ReadOutcome {
        case open
        case closed
        case lineTooLong
    }

    /// Reads what is there and calls `line` with each complete line (without its newline).
    public func read(_ line: (ArraySlice<UInt8>) -> Void) -> ReadOutcome {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n == 0 { return .closed }
            if n < 0 {
                if errno == EINTR { continue }
                return errno == EAGAIN || errno == EWOULDBLOCK ? .open : .closed
            }
            var start = pending.count
            pending.append(contentsOf: buffer[0..<n])
            var lineStart = 0
            while let nl = pending[start...].firstIndex(of: 0x0a) {
                line(pending[lineStart..<nl])
                lineStart = nl + 1
                start = lineStart
            }
            if lineStart > 0 { pending.removeSubrange(0..<lineStart) }
            if pending.count > Self.maximumLine { return .lineTooLong }
        }
    }

    /// For the last words at shutdown: blocking writes, bounded by a send timeout.
    public func makeBlocking(sendTimeoutMilliseconds ms: Int) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        var tv = timeval(tv_sec: ms / 1000, tv_usec: (ms % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes as much of `bytes` as the socket takes now; returns the count, or -1 when the peer is gone.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        sendAvailable(fd, bytes)
    }
}
