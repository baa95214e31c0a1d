import CLinux
import Glibc

/// The listening Unix stream socket, mode 0660 and optionally owned by a group. A stale socket file (no
/// one answers) is replaced; a live one means another daemon is serving, and we refuse to start.
///
/// It keeps one descriptor in reserve (`/dev/null`, opened at start) for when the process has none left:
/// a connection that `accept4` cannot take (`EMFILE`) is then taken with the reserve's number, told why
/// (`too-many-clients`) and closed, and the reserve opened again. Chosen over only ceasing to poll the
/// listener: the newcomer gets an answer at once instead of waiting unseen in the backlog, the backlog
/// cannot fill (so connecting never blocks), each waiting connection costs one accept (the loop cannot
/// spin), and the clients already connected are untouched, as at `MaxClients`. Where even the reserve
/// is gone (`ENFILE`: the system's table is full, and another process took the slot it freed) the loop
/// falls back to resting the listener (``AcceptOutcome/unavailable(_:)``).
public final class UnixListener {
    public let fd: Int32
    public let path: String
    /// Whether we created the file (and so remove it on exit); false for an inherited (socket-activated) fd.
    let ownsPath: Bool
    /// The descriptor kept for refusing a connection when none is left; nil while spent.
    private var reserve: Int32? = nil
    /// `accept4` calls that failed, `EAGAIN` aside (``DaemonActivity/acceptErrors``).
    public private(set) var failures = 0

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
        if let r = reserve { close(r) }
        reserve = nil
        if ownsPath { unlink(path) }
    }

    /// Whether a descriptor is held in reserve.
    public var hasReserve: Bool { reserve != nil }

    /// Opens the reserve descriptor if it is spent (at start, and when the loop stops resting the
    /// listener); false when no descriptor is left for it either.
    @discardableResult
    public func restoreReserve() -> Bool {
        if reserve == nil {
            let r = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if r >= 0 { reserve = r }
        }
        return reserve != nil
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

    /// Accepts one pending connection, non-blocking, with its errors handled by kind (``AcceptFailure``):
    /// a connection that went before it was taken is passed over, one for which no descriptor is left is
    /// sent `refusal` with the reserve, and anything else is for the loop to wait out.
    public func accept(refusingWith refusal: [UInt8]) -> AcceptOutcome {
        while true {
            do {
                guard let c = try nonblockingSyscall("accept4", path, { pressured_accept(fd) }) else { return .nonePending }
                return .client(ClientConnection(fd: c))
            } catch {
                failures += 1
                switch AcceptFailure(errno: error.errno) {
                case .connectionGone: continue
                case .outOfDescriptors: return refuseWithReserve(refusal, error)
                case .other: return .unavailable(error)
                }
            }
        }
    }

    /// Spends the reserve on the connection no descriptor was left for: takes it, sends it `refusal`
    /// (a fresh socket's buffer holds one line), closes it, and takes the reserve back.
    private func refuseWithReserve(_ refusal: [UInt8], _ error: SystemError) -> AcceptOutcome {
        guard let r = reserve else { return .unavailable(error) }
        close(r)
        reserve = nil
        defer { restoreReserve() }
        let taken: Int32?
        do { taken = try nonblockingSyscall("accept4", path, { pressured_accept(fd) }) } catch {
            failures += 1
            return AcceptFailure(errno: error.errno) == .connectionGone ? .nonePending : .unavailable(error)
        }
        guard let c = taken else { return .nonePending }  // it went meanwhile
        refusal.withUnsafeBytes { _ = send(c, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(c)
        return .refused(error)
    }
}
