import PressureCore

/// Which input devices pressured serves: touchscreens and touchpads, not pens, mice or joysticks.
///
/// Two views of the same question: udev's classification (when udev runs, its `input_id` builtin has
/// already looked at the device), and our own reading of a device's description (when it does not).
public enum TouchDeviceFilter {
    /// `BTN_TOOL_PEN`, `BTN_TOOL_RUBBER`, `BTN_STYLUS`, `BTN_STYLUS2`: a tablet or pen digitiser, whose
    /// pressure is a pen's, not a finger's.
    static let penCodes: [UInt16] = [0x140, 0x141, 0x14b, 0x14c]
    /// `INPUT_PROP_ACCELEROMETER`: absolute X/Y that are tilt, not position.
    static let accelerometerProperty: UInt16 = 0x06

    /// Whether udev's properties for a device say touchscreen or touchpad (`ID_INPUT_TOUCHSCREEN=1`,
    /// `ID_INPUT_TOUCHPAD=1`). Tablets (`ID_INPUT_TABLET`) are left out: udev gives that to pen digitisers.
    public static func isTouch(properties: [String: String]) -> Bool {
        properties["ID_INPUT_TOUCHSCREEN"] == "1" || properties["ID_INPUT_TOUCHPAD"] == "1"
    }

    /// Whether a device's description is a touch device, judged as udev's `input_id` would: multi-touch
    /// positions (`ABS_MT_POSITION_X/Y`), or single-touch `ABS_X/Y` with `BTN_TOUCH` (or, on a device
    /// marked direct, with `ABS_PRESSURE`: resistive panels without a touch button); never a pen or an
    /// accelerometer.
    public static func isTouch(_ d: DeviceDescription) -> Bool {
        if penCodes.contains(where: { d.has(type: EventType.key, code: $0) }) { return false }
        if d.properties.contains(accelerometerProperty) { return false }
        if d.axis(AbsCode.mtPositionX) != nil && d.axis(AbsCode.mtPositionY) != nil { return true }
        guard d.axis(AbsCode.x) != nil, d.axis(AbsCode.y) != nil else { return false }
        if d.has(type: EventType.key, code: KeyCode.btnTouch) { return true }
        return d.properties.contains(InputProperty.direct) && d.axis(AbsCode.pressure) != nil
    }
}
