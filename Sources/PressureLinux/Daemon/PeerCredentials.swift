import Glibc

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
