/// Who a client is: what the kernel vouches for about the process that connected (`SO_PEERCRED`,
/// `SO_PEERGROUPS`, read by the Linux loop when it accepts the connection): its user, its group and its
/// supplementary groups. Not its pid or executable: under the unit other processes' `/proc` is invisible,
/// and pids are reused. The hub decides with this value alone (``AccessPolicy``), so every decision is
/// testable with identities written down in a test.
public struct PeerIdentity: Hashable, Sendable, CustomStringConvertible {
    public var uid: UInt32
    public var gid: UInt32
    /// Supplementary groups.
    public var groups: [UInt32]

    public init(uid: UInt32, gid: UInt32, groups: [UInt32] = []) {
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// The kernel would not say: `(uid_t)-1`, which no account has and no configuration may name, so
    /// nothing beyond what is open to anyone is allowed.
    public static let unknown = PeerIdentity(uid: UInt32.max, gid: UInt32.max)

    /// Root.
    public static let root = PeerIdentity(uid: 0, gid: 0)

    /// Whether `group` is the peer's group or one of its supplementary groups.
    public func isMember(of group: UInt32) -> Bool {
        group != UInt32.max && (gid == group || groups.contains(group))
    }

    /// `uid 1000 gid 1000 groups 27,100`, for log lines and refusals.
    public var description: String {
        "uid \(uid) gid \(gid)" + (groups.isEmpty ? "" : " groups " + groups.map(String.init).joined(separator: ","))
    }
}
