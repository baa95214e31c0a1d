import Glibc
import PressureLinux

/// What filter mode costs, as files (`docs/filter.md`, "Access"): the two files `pressurectl filter enable`
/// writes and `disable` removes, under a root directory (`/`, or an image being built, or a test's folder).
///
/// - a drop-in for `pressured.service` that lets the daemon write `/dev/uinput` (the cgroup's device list and
///   a supplementary group of its own) and turns the watchdog on, since a daemon that holds the panel must
///   not hang holding it;
/// - a udev rule that gives `/dev/uinput` to that group, 0660.
///
/// The package ships neither (only the group, in its sysusers file): uinput can inject any input, so it is
/// granted only where someone asked for filter mode.
public struct FilterAccess: Sendable {
    /// The group that may write `/dev/uinput`: the daemon's alone. Never `pressured`, which clients join.
    public static let group = "pressured-uinput"
    public static let unitDirectory = "/etc/systemd/system"
    public static let dropInDirectory = unitDirectory + "/pressured.service.d"
    public static let dropInPath = dropInDirectory + "/filter.conf"
    public static let udevDirectory = "/etc/udev"
    public static let udevRulePath = udevDirectory + "/rules.d/70-pressured-uinput.rules"
    public static let groupFile = "/etc/group"
    public static let uinputNode = "/dev/uinput"

    /// The drop-in. Why each line, in the file itself, for whoever finds it in /etc.
    public static let dropIn = """
        # Written by `pressurectl filter enable`; `pressurectl filter disable` removes it (docs/filter.md, "Access").
        # Filter mode grabs the panel and serves the compositor through a uinput clone, so the daemon needs to
        # write /dev/uinput -- which can inject any input: a compromised pressured could type and click.
        [Service]
        DeviceAllow=/dev/uinput rw
        SupplementaryGroups=\(group)
        # A daemon that holds the panel must not hang holding it: the keep-alives come from the event loop
        # itself (every 0.5 s), so a loop stuck in a frame misses them and systemd restarts the daemon within
        # about 1 s; the grab dies with it and the compositor has the panel again.
        WatchdogSec=1s
        # SIGABRT (systemd's default, sent with a SIGCONT, so a stopped daemon gets it too) leaves a core or a
        # backtrace to say where it hung; if that takes longer than TimeoutAbortSec, SIGKILL, as the panel
        # waits for the grab to go.
        WatchdogSignal=SIGABRT
        TimeoutAbortSec=1s
        # Restart=on-failure (the unit's) covers the watchdog; restart sooner than the unit's 500 ms, as the
        # panel is served unfiltered until the new daemon grabs it again.
        RestartSec=100ms
        # Each clone's descriptor is kept here while the daemon restarts, so the compositor keeps the device
        # and the new daemon writes to it again once it has grabbed the panel: one a panel, 64 being more than
        # any panel PC has. Stopping the service closes them, and the clones go.
        FileDescriptorStoreMax=64

        """

    /// The udev rule. `static_node=` applies it to the node systemd-tmpfiles makes at boot before the
    /// module is loaded (the first open loads it), so the daemon can open it then too.
    public static let udevRule = """
        # Written by `pressurectl filter enable`; `pressurectl filter disable` removes it (docs/filter.md, "Access").
        # /dev/uinput to the group only pressured.service joins (through the drop-in written with this rule).
        SUBSYSTEM=="misc", KERNEL=="uinput", GROUP="\(group)", MODE="0660", OPTIONS+="static_node=uinput"

        """

    /// The root everything is written under, without a trailing slash (`""` for `/`).
    public let root: String

    public init(root: String = "/") {
        var r = root
        while r.hasSuffix("/") { r.removeLast() }
        self.root = r
    }

    /// True for the running system's own root, where commands are run and /dev is looked at.
    public var isSystemRoot: Bool { root.isEmpty }

    /// `path` (absolute) under the root.
    public func path(_ path: String) -> String { root + path }

    /// Writes the rule and the drop-in, each atomically (written beside, flushed, renamed over), the rule
    /// first, so a service started in between never joins a group that owns nothing.
    public func enable() throws(FilterAccessError) {
        try requireDirectory(Self.unitDirectory, else: FilterAccessError.unitDirectoryMissing)
        try requireDirectory(Self.udevDirectory, else: FilterAccessError.udevDirectoryMissing)
        guard groupID() != nil else { throw .groupMissing(group: Self.group, file: path(Self.groupFile)) }
        for (file, text) in [(Self.udevRulePath, Self.udevRule), (Self.dropInPath, Self.dropIn)] {
            try makeParent(of: file)
            do throws(SystemError) {
                try OutputFile.replace(path(file), with: Array(text.utf8))
            } catch { throw .cannotWrite(error) }
        }
    }

    /// Removes the drop-in and the rule (either may be gone already), and the drop-in's folder if it is
    /// left empty.
    public func disable() throws(FilterAccessError) {
        for file in [Self.dropInPath, Self.udevRulePath] where unlink(path(file)) != 0 && errno != ENOENT {
            throw .cannotRemove(SystemError(call: "unlink", subject: path(file), errno: errno))
        }
        _ = rmdir(path(Self.dropInDirectory))  // only if empty: another drop-in may live there
    }

    /// What is in place now.
    public func inspect() -> FilterAccessState {
        FilterAccessState(
            dropIn: Self.compare(path(Self.dropInPath), with: Self.dropIn),
            udevRule: Self.compare(path(Self.udevRulePath), with: Self.udevRule),
            groupID: groupID(),
            node: isSystemRoot ? FilterAccessState.Node(path: Self.uinputNode) : nil)
    }

    /// The group's id in the root's group file (where systemd-sysusers writes it), or nil.
    public func groupID() -> UInt32? {
        guard let text = try? FileBytes.read(path(Self.groupFile)) else { return nil }
        for line in String(decoding: text, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count >= 3, fields[0] == Self.group, let id = UInt32(fields[2]) { return id }
        }
        return nil
    }

    private static func compare(_ file: String, with expected: String) -> FilterAccessState.File {
        guard let bytes = try? FileBytes.read(file) else { return .absent }
        return bytes == Array(expected.utf8) ? .asWritten : .changed
    }

    private func requireDirectory(
        _ directory: String, else error: (String) -> FilterAccessError
    ) throws(FilterAccessError) {
        var st = stat()
        guard stat(path(directory), &st) == 0, st.st_mode & S_IFMT == S_IFDIR else { throw error(path(directory)) }
    }

    private func makeParent(of file: String) throws(FilterAccessError) {
        guard let slash = file.lastIndex(of: "/") else { return }
        let parent = path(String(file[..<slash]))
        if mkdir(parent, 0o755) != 0 && errno != EEXIST {
            throw .cannotWrite(SystemError(call: "mkdir", subject: parent, errno: errno))
        }
    }
}
