import CLinux
import Glibc
import PressureSystem

/// What the kernel says of the device a uinput descriptor made: its name and phys (sysfs) and its event
/// node. Filter mode reads it to check that a clone systemd kept across a restart is still the clone of the
/// panel it is taken back for (``TouchClone/init(adopting:panelName:panelNode:panelSlot:slots:singleTouch:marksPalms:)``).
struct UinputIdentity: Equatable {
    var name: String
    var phys: String
    /// `/dev/input/eventN`.
    var node: String

    /// Nil when the descriptor has no device (not uinput, or destroyed) or sysfs does not say.
    init?(descriptor fd: Int32) {
        var buf = [CChar](repeating: 0, count: 64)
        let asked = try? syscall("UI_GET_SYSNAME", "uinput") {
            buf.withUnsafeMutableBufferPointer { pressured_uinput_sysname(fd, $0.baseAddress, $0.count) }
        }
        guard asked != nil else { return nil }
        let sysname = String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let dir = "/sys/devices/virtual/input/" + sysname
        guard !sysname.isEmpty, let name = Self.attribute(dir + "/name"), let phys = Self.attribute(dir + "/phys"),
            let event = DevInputWatcher.eventNodes(in: dir).first.flatMap({ $0.split(separator: "/").last })
        else { return nil }
        self.init(name: name, phys: phys, node: "/dev/input/" + event)
    }

    init(name: String, phys: String, node: String) {
        self.name = name
        self.phys = phys
        self.node = node
    }

    /// A sysfs attribute without its newline.
    private static func attribute(_ path: String) -> String? {
        guard let bytes = try? FileBytes.read(path) else { return nil }
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
