import Glibc

/// What `pressurectl filter status` found: the two files `enable` writes, the group, and `/dev/uinput`.
public struct FilterAccessState: Equatable, Sendable {
    /// A file `enable` writes, as found.
    public enum File: Equatable, Sendable {
        case absent
        /// Byte for byte what `enable` writes.
        case asWritten
        /// There, but edited since (or written by another version): kept as it is by the check.
        case changed
    }

    /// `/dev/uinput`'s owner group and mode, as the kernel reports them.
    public struct Node: Equatable, Sendable {
        public var group: UInt32
        public var mode: UInt32

        /// The node at `path`, or nil where there is none (no uinput in the kernel).
        public init?(path: String) {
            var st = stat()
            guard stat(path, &st) == 0 else { return nil }
            group = st.st_gid
            mode = st.st_mode & 0o7777
        }

        public init(group: UInt32, mode: UInt32) {
            self.group = group
            self.mode = mode
        }
    }

    public var dropIn: File
    public var udevRule: File
    /// The group's id, where the group exists.
    public var groupID: UInt32?
    /// Nil when not looked at (another root) or absent.
    public var node: Node?

    /// Both files in place: the daemon may create its clone once restarted.
    public var granted: Bool { dropIn != .absent && udevRule != .absent }

    /// Whether the node is the group's to write, as the rule makes it.
    public var nodeWritableByGroup: Bool {
        guard let node, let groupID else { return false }
        return node.group == groupID && node.mode & 0o060 == 0o060
    }
}
