import Glibc
import PressureLinux

/// Why `pressurectl filter enable` or `disable` did not do what was asked, and what to do instead.
public enum FilterAccessError: Error, Equatable, CustomStringConvertible {
    /// Writing under /etc and restarting a service are root's (or give `--root DIR` for an image).
    case notRoot(command: String)
    /// No systemd unit directory under the root: not a systemd system, or the wrong `--root`.
    case unitDirectoryMissing(String)
    /// No udev configuration directory under the root.
    case udevDirectoryMissing(String)
    /// The group the package's sysusers file declares is not there: the unit would fail to start with it.
    case groupMissing(group: String, file: String)
    case cannotWrite(SystemError)
    case cannotRemove(SystemError)
    /// A command the change needs (`systemctl daemon-reload`, `udevadm trigger`) failed.
    case commandFailed(command: String, status: Int32)

    public var description: String {
        switch self {
        case .notRoot(let command):
            return "filter \(command) writes under /etc and restarts pressured.service: run it as root (sudo), "
                + "or give --root DIR to write into an image"
        case .unitDirectoryMissing(let path):
            return "\(path) is not a directory: is this a systemd system (or the root of one, with --root)?"
        case .udevDirectoryMissing(let path):
            return "\(path) is not a directory: is udev installed (under --root, if given)?"
        case .groupMissing(let group, let file):
            return "no group \(group) in \(file): the pressured package's sysusers file declares it; "
                + "run `systemd-sysusers pressured.conf` (or reinstall the package) first"
        case .cannotWrite(let e):
            return "cannot write \(e.subject): \(e)" + (e.errno == EROFS ? " (a read-only /etc?)" : "")
        case .cannotRemove(let e):
            return "cannot remove \(e.subject): \(e)"
        case .commandFailed(let command, let status):
            return "`\(command)` failed (exit status \(status)); the files are in place: run it again by hand"
        }
    }
}
