/// The two uinput devices a panel with actions gets (`docs/actions.md`): an absolute pointer for clicks
/// where the finger is, as QEMU's USB tablet is one (absolute `ABS_X`/`ABS_Y`, the three buttons, no
/// `INPUT_PROP_DIRECT`: libinput and X take it as a pointer with absolute motion, not a touchscreen),
/// and a keyboard for keys. What each is, pure; `PressureLinux/Input/ActionDevice.swift` makes them.
public enum ActionDeviceKind: String, Hashable, Sendable, CaseIterable {
    case pointer
    case keyboard

    /// What their `phys` starts with, before the panel's node: udev's rule and pressured's discovery leave
    /// them alone, and an admin can tell whose they are.
    public static let physPrefix = "pressured-action:"
    /// What their names end with: the suffix of every device pressured makes, which it never serves.
    public static let nameSuffix = " (pressured)"

    /// The device's name for the panel named `panel`: `FlatFrog 3200 pointer (pressured)`. A compositor's
    /// per-device settings (sway's `input … map_to_output`, `xinput map-to-output`) find it by it.
    public func name(forPanel panel: String) -> String { "\(panel) \(rawValue)\(Self.nameSuffix)" }

    /// The keyboard's keys: every key up to `KEY_MICMUTE`, so udev and libinput take it as a keyboard and a
    /// reload that binds another key needs no new device; and any code an action names beyond.
    static let keyboardKeys: Set<UInt16> = Set(1...0xF8)

    /// The device's description for the panel named `panel`: virtual bus, the events it writes.
    public func description(forPanel panel: String, keys: [UInt16] = []) -> DeviceDescription {
        let identity = DeviceIdentity(bus: BusType.virtual, vendor: 0, product: 0, version: 1)
        switch self {
        case .pointer:
            return DeviceDescription(
                name: name(forPanel: panel), identity: identity,
                codes: [
                    EventType.syn: [SynCode.report],
                    EventType.key: [KeyCode.btnLeft, KeyCode.btnRight, KeyCode.btnMiddle],
                    EventType.abs: [AbsCode.x, AbsCode.y],
                ],
                absInfo: [AbsCode.x: FiredAction.pointerRange, AbsCode.y: FiredAction.pointerRange])
        case .keyboard:
            return DeviceDescription(
                name: name(forPanel: panel), identity: identity,
                codes: [EventType.syn: [SynCode.report], EventType.key: Self.keyboardKeys.union(keys)])
        }
    }
}
