/// Opening an input device for the command-line tools.
public enum InputDeviceAccess {
    /// Opens an evdev node (`/dev/input/eventN`), shared with the compositor (no grab).
    public static func open(_ node: String) throws(InputDeviceError) -> EvdevDevice {
        do { return try EvdevDevice(node: node) } catch { throw InputDeviceError(underlying: error) }
    }
}
