import CLibudev
import Glibc
import PressureCommandLine

/// Touch devices as udev knows them: its database for the nodes present now, and its netlink monitor
/// (``UdevMonitor``) for the ones that come and go. udev has already classified each device
/// (`ID_INPUT_TOUCHSCREEN` …) and set its permissions by the time it reports it.
public final class UdevDiscovery {
    /// The socket udevd listens on: present exactly while udevd runs.
    public static let controlSocket = "/run/udev/control"

    let udev: OpaquePointer

    /// Whether udevd is running. Without it libudev still works but its database is empty and nothing
    /// arrives on the monitor, so the caller should watch the input directory instead.
    public static func isAvailable(controlSocket: String = controlSocket) -> Bool {
        access(controlSocket, F_OK) == 0
    }

    public init() throws(SystemError) {
        Glibc.errno = 0
        guard let u = udev_new() else {
            throw SystemError(call: "udev_new", subject: "udev", errno: Glibc.errno != 0 ? Glibc.errno : ENOMEM)
        }
        udev = u
    }

    deinit { udev_unref(udev) }

    /// The `/dev/input/event*` nodes of touch devices udev knows now, in number order. Empty when udev
    /// does not run or enumeration fails (logged): no devices is the safe answer for a daemon that will
    /// hear about devices through the monitor anyway.
    public func enumerate() -> [String] {
        enumerate { TouchDeviceFilter.isTouch(properties: Self.properties($0)) }
    }

    /// The nodes of haptic devices udev knows now (``HapticDeviceFilter``), in number order.
    public func enumerateHaptic() -> [String] { enumerate(Self.isHaptic) }

    /// Whether a udev device is a haptic device (its input parent's `capabilities/ff` and its properties).
    static func isHaptic(_ device: OpaquePointer) -> Bool {
        let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil)
        let ff = parent.flatMap { udev_device_get_sysattr_value($0, "capabilities/ff") }.map { String(cString: $0) }
        return HapticDeviceFilter.isHaptic(properties: properties(device), ffCapabilities: ff)
    }

    /// The `event*` nodes of initialized input devices that `accept` takes, in number order.
    func enumerate(_ accept: (OpaquePointer) -> Bool) -> [String] {
        guard let e = udev_enumerate_new(udev) else {
            Log.warning("udev: cannot enumerate input devices: \(String(cString: strerror(Glibc.errno)))")
            return []
        }
        defer { udev_enumerate_unref(e) }
        // Only devices udev has finished processing carry its classification and final permissions.
        guard udev_enumerate_add_match_subsystem(e, "input") >= 0,
            udev_enumerate_add_match_sysname(e, "event*") >= 0,
            udev_enumerate_add_match_is_initialized(e) >= 0
        else { return [] }
        let rc = udev_enumerate_scan_devices(e)
        if rc < 0 {
            Log.warning("udev: cannot enumerate input devices: \(String(cString: strerror(-rc)))")
            return []
        }
        var nodes: [String] = []
        var entry = udev_enumerate_get_list_entry(e)
        while let en = entry {
            entry = udev_list_entry_get_next(en)
            guard let syspath = udev_list_entry_get_name(en),
                let device = udev_device_new_from_syspath(udev, syspath)
            else { continue }
            defer { udev_device_unref(device) }
            if let node = Self.devnode(device), EventNode.isEventNode(node), accept(device) {
                nodes.append(node)
            }
        }
        return EventNode.sorted(nodes)
    }

    /// A monitor for input devices added and removed from now on.
    public func makeMonitor() throws(SystemError) -> UdevMonitor { try UdevMonitor(discovery: self) }

    static func devnode(_ device: OpaquePointer) -> String? {
        udev_device_get_devnode(device).map { String(cString: $0) }
    }

    /// Every udev property of a device (`ID_INPUT_TOUCHSCREEN=1` …).
    static func properties(_ device: OpaquePointer) -> [String: String] {
        var result: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let en = entry {
            entry = udev_list_entry_get_next(en)
            guard let name = udev_list_entry_get_name(en) else { continue }
            result[String(cString: name)] = udev_list_entry_get_value(en).map { String(cString: $0) } ?? ""
        }
        return result
    }
}

@available(*, unavailable, message: "libudev contexts are not thread-safe")
extension UdevDiscovery: Sendable {}
