import CLibudev
import Glibc
import PressureCore

extension UdevDiscovery {
    /// The udev properties of the device behind a node (by its device number), or empty where udev has
    /// no record of it (udevd not running, a node made by hand).
    public func properties(ofNode node: String) -> [String: String] {
        var st = stat()
        guard stat(node, &st) == 0, (st.st_mode & S_IFMT) == S_IFCHR,
            let device = udev_device_new_from_devnum(udev, CChar(UInt8(ascii: "c")), st.st_rdev)
        else { return [:] }
        defer { udev_device_unref(device) }
        return Self.properties(device)
    }

    /// The udev properties of a node where udevd runs; empty otherwise (no record to read).
    public static func propertiesIfRunning(ofNode node: String) -> [String: String] {
        guard isAvailable(), let udev = try? UdevDiscovery() else { return [:] }
        return udev.properties(ofNode: node)
    }
}
