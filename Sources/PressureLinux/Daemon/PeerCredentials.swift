import CLinux
import Glibc
import PressureCore

/// Who is on the other end of a client socket, as the kernel recorded it when the peer connected
/// (`SO_PEERCRED`: pid, uid, gid; `SO_PEERGROUPS`: the supplementary groups). The hub is handed the
/// ``identity`` alone; the pid is for log lines.
public struct PeerCredentials: Equatable, Sendable {
    public var pid: Int32
    public var identity: PeerIdentity

    /// Reads the credentials of the connected socket `fd`.
    public init(socket fd: Int32) throws(SystemError) {
        var cred = pressured_ucred()
        _ = try syscall("getsockopt(SO_PEERCRED)", "client") { pressured_peer_credentials(fd, &cred) }
        pid = cred.pid
        identity = PeerIdentity(uid: cred.uid, gid: cred.gid, groups: try Self.groups(fd))
    }

    /// `SO_PEERGROUPS`, asked again with the room the kernel says it needs when the first guess (64
    /// groups) is too small (`ERANGE`).
    static func groups(_ fd: Int32) throws(SystemError) -> [UInt32] {
        var groups = [gid_t](repeating: 0, count: 64)
        while true {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            do {
                _ = try syscall("getsockopt(SO_PEERGROUPS)", "client") {
                    groups.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, $0.baseAddress, &length) }
                }
                return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size))
            } catch where error.errno == ERANGE && Int(length) > groups.count * MemoryLayout<gid_t>.size {
                groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size)
            }
        }
    }
}
