import CLinux
import Glibc
import PressureCommandLine

/// systemd's notify protocol, spoken directly (no libsystemd): one datagram per state change to the
/// socket named by `$NOTIFY_SOCKET` (`READY=1`, `STATUS=…`, `RELOADING=1`, `STOPPING=1`, `WATCHDOG=1`).
/// Without the variable (not started by systemd) every call does nothing.
public final class SystemdNotify {
    private let fd: Int32
    private var address = sockaddr_un()
    private let length: socklen_t
    /// Half of `WatchdogSec=`, when systemd asked for keep-alives from this process.
    public let watchdogIntervalMicroseconds: Int64?

    /// Nil when not under systemd (no `NOTIFY_SOCKET`).
    public init?() {
        guard let raw = getenv("NOTIFY_SOCKET") else { return nil }
        var path = String(cString: raw)
        // '@' names an abstract socket: its address starts with a NUL byte.
        let abstract = path.hasPrefix("@")
        if abstract { path.removeFirst() }
        let n = path.utf8.count
        guard n > 0, n < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let start = abstract ? 1 : 0
            for (i, b) in path.utf8.enumerated() { raw[start + i] = b }
        }
        // Abstract: the leading NUL and the name; a path: the name and its terminating NUL.
        length = socklen_t(MemoryLayout<sa_family_t>.size + n + 1)
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var interval: Int64? = nil
        if let usec = getenv("WATCHDOG_USEC").flatMap({ Int64(String(cString: $0)) }), usec > 0 {
            let pid = getenv("WATCHDOG_PID").flatMap { Int32(String(cString: $0)) }
            if pid == nil || pid == getpid() { interval = usec / 2 }
        }
        watchdogIntervalMicroseconds = interval
    }

    deinit { close(fd) }

    /// Puts `descriptor` in systemd's file descriptor store under `name` (`FDSTORE=1`; the unit's
    /// `FileDescriptorStoreMax=` must allow it): systemd keeps it while the service restarts and passes it
    /// back (``SocketActivation/passed(storedPrefixes:)``). `name`: printable ASCII, no `:`, at most 255.
    /// Returns whether systemd was sent it; a failure is logged, never fatal.
    @discardableResult
    public func store(_ descriptor: Int32, name: String) -> Bool {
        transmit("FDSTORE=1\nFDNAME=\(name)", carrying: descriptor)
    }

    /// Closes systemd's copies of the descriptors stored under `name` (`FDSTOREREMOVE=1`).
    public func removeStored(name: String) {
        send("FDSTOREREMOVE=1\nFDNAME=\(name)")
    }

    /// Sends newline-separated assignments; a failure is logged once per call, never fatal.
    public func send(_ state: String) {
        transmit(state, carrying: -1)
    }

    /// One datagram to systemd, with `descriptor` attached (`SCM_RIGHTS`) unless it is negative; whether it
    /// went, a failure logged.
    @discardableResult
    private func transmit(_ message: String, carrying descriptor: Int32) -> Bool {
        do {
            _ = try message.withCString { p throws(SystemError) in
                try syscall("sendmsg", "sd_notify") {
                    withUnsafePointer(to: &address) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                            pressured_send_datagram(fd, p, strlen(p), $0, length, descriptor)
                        }
                    }
                }
            }
            return true
        } catch {
            Log.warning("\(error)")
            return false
        }
    }
}
