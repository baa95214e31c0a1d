import Glibc
import PressureCore

/// The system's users and groups (`getpwnam_r`, `getgrnam_r`: `/etc/passwd`, `/etc/group` and whatever
/// else NSS is set up to ask).
struct SystemAccounts: AccountDirectory {
    func userID(named name: String) -> UInt32? {
        Self.lookUp { buffer, base in
            var entry = passwd()
            var found: UnsafeMutablePointer<passwd>? = nil
            let rc = getpwnam_r(name, &entry, base, buffer.count, &found)
            return (rc, found == nil ? nil : entry.pw_uid)
        }
    }

    func groupID(named name: String) -> UInt32? {
        Self.lookUp { buffer, base in
            var entry = group()
            var found: UnsafeMutablePointer<group>? = nil
            let rc = getgrnam_r(name, &entry, base, buffer.count, &found)
            return (rc, found == nil ? nil : entry.gr_gid)
        }
    }

    /// Calls `body` with a buffer for the entry's strings, again with a larger one while it says `ERANGE`
    /// (a group with many members needs more than the first guess), up to 1 MiB.
    private static func lookUp(
        _ body: (UnsafeMutableBufferPointer<CChar>, UnsafeMutablePointer<CChar>) -> (Int32, UInt32?)
    ) -> UInt32? {
        var size = 4096
        while size <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: size)
            let (rc, id) = buffer.withUnsafeMutableBufferPointer { b in b.baseAddress.map { body(b, $0) } ?? (EINVAL, nil) }
            if rc != ERANGE { return rc == 0 ? id : nil }
            size *= 4
        }
        return nil
    }
}
