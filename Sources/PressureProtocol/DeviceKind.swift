/// A screen the finger touches directly, or a pad the finger moves a pointer with (DEVICE's `kind`).
public enum DeviceKind: String, Sendable, CaseIterable {
    case touchscreen, touchpad
}
