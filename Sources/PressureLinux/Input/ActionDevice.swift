import CLibevdev
import CLinux
import Glibc
import PressureCommandLine
import PressureCore

/// One of a panel's action devices (``ActionDeviceKind``): the uinput pointer an action clicks with or the
/// keyboard it presses keys on, made through `/dev/uinput` as filter mode's clone is (the same access), and
/// written the events a ``FiredAction`` says. Its I/O only, every call through the syscall funnel.
final class ActionDevice {
    let kind: ActionDeviceKind
    /// Its event node, for the log.
    let node: String
    private var uinput: OpaquePointer?
    private let descriptor: Int32
    /// Writes each action's events, logging a failure once.
    private var writer = UinputWriter()

    /// Makes the `kind` device for the panel named `panelName` at `panelNode`; `keys`: the codes the
    /// panel's key actions press (the keyboard has them beside its own).
    init(_ kind: ActionDeviceKind, panelName: String, panelNode: String, keys: [UInt16]) throws(SystemError) {
        let described = kind.description(forPanel: panelName, keys: keys)
        guard let dev = EvdevDescription.libevdev(describing: described) else {
            throw SystemError(call: "libevdev (the action \(kind)'s description)", subject: panelNode, errno: EINVAL)
        }
        defer { libevdev_free(dev) }
        let made = try TouchClone.create(from: dev, phys: ActionDeviceKind.physPrefix + panelNode).get()
        self.kind = kind
        uinput = made
        descriptor = libevdev_uinput_get_fd(made)
        node = libevdev_uinput_get_devnode(made).map { String(cString: $0) } ?? "(no node)"
    }

    deinit { close() }

    /// Destroys the device (its panel went, or its actions did).
    func close() {
        guard let u = uinput else { return }
        uinput = nil
        libevdev_uinput_destroy(u)
        _ = try? syscall("close", node) { Glibc.close(descriptor) }
    }

    /// Writes `events` in one `write(2)` (``UinputWriter``).
    func write(_ events: [InputEvent]) {
        guard uinput != nil else { return }
        writer.write(events, descriptor: descriptor, node: node, what: "the action \(kind)")
    }
}

@available(*, unavailable, message: "ActionDevice belongs to the daemon's loop")
extension ActionDevice: Sendable {}
