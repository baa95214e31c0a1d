import CLinux
import Glibc

/// The listening Unix stream socket, mode 0660 and optionally owned by a group. A stale socket file (no
/// one answers) is replaced; a live one means another daemon is serving, and we refuse to start.
///
/// Its connections are accepted through an ``AcceptGuard`` (PressureSystem's, the web bridge's too): at
/// the descriptor limit a newcomer is told `too-many-clients` on the reserve descriptor and closed, and
/// where even the reserve is gone the loop rests the listener (``GuardedAccept/unavailable(_:)``).
public final class UnixListener {
    public let fd: Int32
    public let path: String
    /// Whether we created the file (and so remove it on exit); false for an inherited (socket-activated) fd.
    let ownsPath: Bool
    /// The reserve descriptor and accept4's failures by kind.
    private let acceptGuard = AcceptGuard()
    /// `accept4` calls that failed, `EAGAIN` aside (``DaemonActivity/acceptErrors``).
    public var failures: Int { acceptGuard.failures }

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
        restoreReserve()
    }

    /// A socket handed over by systemd (`LISTEN_FDS`).
    public init(inheritedFD: Int32, path: String) {
        fd = inheritedFD
        self.path = path
        ownsPath = false
        let flags = fcntl(inheritedFD, F_GETFL)
        _ = fcntl(inheritedFD, F_SETFL, flags | O_NONBLOCK)
        restoreReserve()
    }

    deinit { stop() }

    private var stopped = false

    /// Closes the socket and removes the file we created (main exits without running deinits).
    public func stop() {
        guard !stopped else { return }
        stopped = true
        close(fd)
        acceptGuard.releaseReserve()
        if ownsPath { unlink(path) }
    }

    /// Whether a descriptor is held in reserve.
    public var hasReserve: Bool { acceptGuard.hasReserve }

    /// Opens the reserve descriptor if it is spent (at start, and when the loop stops resting the listener); false
    /// when no descriptor is left for it either.
    @discardableResult
    public func restoreReserve() -> Bool { acceptGuard.restoreReserve() }

    private static func someoneAnswers(_ addr: inout sockaddr_un, _ length: Int32) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { close(probe) }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(length)) }
        }
        return r == 0
    }

    /// Accepts one pending connection, non-blocking, with its errors handled by kind (``AcceptFailure``):
    /// a connection that went before it was taken is passed over, one for which no descriptor is left is
    /// sent `refusal` with the reserve (a fresh socket's buffer holds one line), and anything else is for
    /// the loop to wait out.
    public func accept(refusingWith refusal: [UInt8]) -> GuardedAccept<ClientConnection> {
        let fd = fd
        return acceptGuard.accept(path, { pressured_accept(fd) }) { c in
            refusal.withUnsafeBytes { _ = send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(c)
        }.map { ClientConnection(fd: $0) }
    }
}
