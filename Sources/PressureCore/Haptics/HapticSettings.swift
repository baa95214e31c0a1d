/// How the daemon plays haptics, from the `[haptics]` sections (`docs/configuration.md`, "Haptics"):
/// whether at all, on which devices, and each gesture's effect (nil: the gesture plays nothing).
public struct HapticSettings: Hashable, Sendable {
    /// `Haptics = auto`: haptic devices are found and used; `off`: none is opened.
    public enum Mode: String, CaseIterable, Hashable, Sendable {
        case auto
        case off
    }

    public var mode: Mode = .auto
    /// `Device`: nodes to use whatever discovery says (a vibrator without `EV_FF` bits udev can see).
    public var nodes: [String] = []
    /// `MatchName`: only haptic devices whose name matches; nil: every haptic device found.
    public var name: Glob?
    public var actuator: HapticActuator = .linear
    /// Effects by ``HapticGesture/index``.
    public var effects: [HapticEffect?]

    public init(actuator: HapticActuator = .linear) {
        self.actuator = actuator
        effects = HapticGesture.allCases.map { actuator.defaultEffect($0) }
    }

    /// The effect `gesture` plays, or nil for none.
    public func effect(_ gesture: HapticGesture) -> HapticEffect? { effects[gesture.index] }

    /// Whether a device of this name is one to play on.
    public func uses(name deviceName: String) -> Bool { name.map { $0.matches(deviceName) } ?? true }
}
