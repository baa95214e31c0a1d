import CLibudev
import Glibc
import PressureCommandLine

/// udev's announcements of input devices added and removed, from its netlink socket.
///
/// Only announcements udevd sends (the `"udev"` group) are heard, never the kernel's raw ones: by then
/// rules have run, so the device is classified and its node has its final owner and mode.
public final class UdevMonitor: HotplugSource {
    public let fd: Int32
    public var nodesAreClassified: Bool { true }

    private let discovery: UdevDiscovery
    private let monitor: OpaquePointer
    private var book = UdevHotplugBook()
    /// Haptic devices come and go through the same announcements, kept apart from touch devices.
    private var hapticBook = UdevHotplugBook()
    /// Haptic nodes added and removed since ``takeHapticChanges()``.
    private var hapticChanges: [Hotplug] = []

    init(discovery: UdevDiscovery) throws(SystemError) {
        self.discovery = discovery
        Glibc.errno = 0
        guard let m = udev_monitor_new_from_netlink(discovery.udev, "udev") else {
            let e = Glibc.errno
            throw SystemError(call: "udev_monitor_new_from_netlink", subject: "udev", errno: e != 0 ? e : ENOMEM)
        }
        func fail(_ call: String, _ rc: Int32) -> SystemError {
            udev_monitor_unref(m)
            return SystemError(call: call, subject: "udev", errno: rc < 0 ? -rc : EIO)
        }
        var rc = udev_monitor_filter_add_match_subsystem_devtype(m, "input", nil)
        if rc < 0 { throw fail("udev_monitor_filter_add_match_subsystem_devtype", rc) }
        rc = udev_monitor_enable_receiving(m)
        if rc < 0 { throw fail("udev_monitor_enable_receiving", rc) }
        let fd = udev_monitor_get_fd(m)
        if fd < 0 { throw fail("udev_monitor_get_fd", fd) }
        // libudev opens the socket non-blocking and close-on-exec today; the daemon depends on both, so
        // they are made sure of rather than assumed.
        do {
            let flags = try syscall("fcntl(F_GETFL)", "udev") { fcntl(fd, F_GETFL) }
            _ = try syscall("fcntl(F_SETFL)", "udev") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
            _ = try syscall("fcntl(F_SETFD)", "udev") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
        } catch {
            udev_monitor_unref(m)
            throw error
        }
        monitor = m
        self.fd = fd
    }

    deinit { udev_monitor_unref(monitor) }

    public func scan() -> [String] {
        let nodes = discovery.enumerate()
        book.known = Set(nodes)
        return nodes
    }

    public func retryWhenAttributesChange(_ node: String) { book.awaitingPermission.insert(node) }

    /// Reads every pending announcement. `add` (and `change`, which can reclassify a device) of an
    /// `event*` node udev calls a touch device reports it added; `remove` of any `event*` node reports it
    /// removed. If the socket overflowed (`ENOBUFS`: announcements were lost), a rescan reports the
    /// difference instead.
    public func receive() -> [Hotplug] {
        var changes: [Hotplug] = []
        while true {
            Glibc.errno = 0
            guard let device = udev_monitor_receive_device(monitor) else {
                let e = Glibc.errno
                if e == ENOBUFS {
                    Log.warning("udev: monitor overflowed; rescanning input devices")
                    changes += rescan()
                    continue
                }
                if e != 0 && e != EAGAIN && e != EWOULDBLOCK {
                    Log.warning("udev: monitor: \(String(cString: strerror(e)))")
                }
                return changes
            }
            defer { udev_device_unref(device) }
            guard let node = UdevDiscovery.devnode(device), EventNode.isEventNode(node) else { continue }
            let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
            if let change = book.apply(action: action, node: node, isTouch: {
                TouchDeviceFilter.isTouch(properties: UdevDiscovery.properties(device))
            }) {
                changes.append(change)
            }
            if let change = hapticBook.apply(action: action, node: node, isTouch: { UdevDiscovery.isHaptic(device) }) {
                hapticChanges.append(change)
            }
        }
    }

    /// The haptic nodes present now (call once, as ``scan()``).
    public func scanHaptic() -> [String] {
        let nodes = discovery.enumerateHaptic()
        hapticBook.known = Set(nodes)
        return nodes
    }

    /// Haptic nodes added and removed, as ``receive()`` heard them (after an overflow, what a rescan finds).
    public func takeHapticChanges() -> [Hotplug] {
        defer { hapticChanges.removeAll() }
        return hapticChanges
    }

    private func rescan() -> [Hotplug] {
        hapticChanges += hapticBook.rescan(now: Set(discovery.enumerateHaptic()))
        return book.rescan(now: Set(discovery.enumerate()))
    }
}

@available(*, unavailable, message: "libudev monitors are not thread-safe")
extension UdevMonitor: Sendable {}
