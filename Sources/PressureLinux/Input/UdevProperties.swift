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

    /// `LIBINPUT_CALIBRATION_MATRIX` of a node, where udev (or a hwdb entry) set a well-formed one; a
    /// malformed one is logged and ignored, as libinput does.
    public static func calibrationMatrix(ofNode node: String) -> [Double]? {
        guard isAvailable(), let udev = try? UdevDiscovery(),
            let text = udev.properties(ofNode: node)["LIBINPUT_CALIBRATION_MATRIX"]
        else { return nil }
        guard let m = ScreenGeometry.parseMatrix(text) else {
            Log.warning("\(node): ignoring malformed LIBINPUT_CALIBRATION_MATRIX \"\(text)\"")
            return nil
        }
        return m
    }
}
