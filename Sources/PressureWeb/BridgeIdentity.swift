import Glibc
import PressureSystem

/// Who the daemon sees on every one of the bridge's connections, whichever page it carries: this process's
/// effective user, group and supplementary groups, which the kernel records when the bridge connects
/// (`SO_PEERCRED`, `SO_PEERGROUPS`). The daemon decides control and closed apps by it (`docs/web.md`,
/// "Identity"); the bridge logs it at start, so an operator can match it to the daemon's configuration.
struct BridgeIdentity: Equatable, CustomStringConvertible {
    var uid: UInt32
    var gid: UInt32
    var groups: [UInt32]

    static func current() -> BridgeIdentity {
        // Asked for their number first; this process never changes its groups, so the second call fits.
        let needed = (try? syscall("getgroups") { getgroups(0, nil) }) ?? 0
        var groups = [gid_t](repeating: 0, count: Int(needed))
        let count = (try? syscall("getgroups") { getgroups(needed, &groups) }) ?? 0
        let gid = getegid()
        // getgroups may or may not list the effective group; the daemon's `groups` are the supplementary ones.
        return BridgeIdentity(uid: geteuid(), gid: gid, groups: groups.prefix(max(0, Int(count))).filter { $0 != gid })
    }

    var isRoot: Bool { uid == 0 }

    /// `uid 998 gid 998 groups 997`, as the daemon's refusals name a connection.
    var description: String {
        "uid \(uid) gid \(gid)" + (groups.isEmpty ? "" : " groups " + groups.map(String.init).joined(separator: ","))
    }
}
