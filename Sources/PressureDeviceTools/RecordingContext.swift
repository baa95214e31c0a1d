import Glibc
import PressureLinux

/// What `libinput record` notes about the machine (`system:` and `udev:`), read here so the pure writer
/// stays pure.
public enum RecordingContext {
    /// `kernel` (the release, from `uname`) and `dmi` (the machine's modalias), where available.
    public static func system() -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        var u = utsname()
        if uname(&u) == 0 {
            let release = withUnsafeBytes(of: &u.release) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            pairs.append(("kernel", release))
        }
        if let dmi = try? FileBytes.read("/sys/class/dmi/id/modalias") {
            pairs.append(("dmi", String(decoding: dmi.prefix { $0 != 0x0a }, as: UTF8.self)))
        }
        return pairs
    }

    /// The udev properties `libinput record` keeps (`ID_INPUT*`, `LIBINPUT*`, `EVDEV_ABS*`, `MOUSE_DPI`,
    /// `POINTINGSTICK_*`), as `KEY=value` lines in key order; empty where udev is not running.
    public static func udevProperties(ofNode node: String) -> [String] {
        guard UdevDiscovery.isAvailable(), let udev = try? UdevDiscovery() else { return [] }
        let prefixes = ["ID_INPUT", "LIBINPUT", "EVDEV_ABS", "MOUSE_DPI", "POINTINGSTICK_"]
        return udev.properties(ofNode: node)
            .filter { key, _ in prefixes.contains { key.hasPrefix($0) } }
            .sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value)" }
    }
}
