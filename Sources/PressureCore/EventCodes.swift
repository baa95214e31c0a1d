/// The evdev event types and codes the core understands, with the kernel's numbers
/// (`linux/input-event-codes.h`). Named here so the core needs no C header.
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
    /// One past the largest event type (`EV_MAX` + 1).
    public static let count = 0x20
}

public enum SynCode {
    public static let report: UInt16 = 0
    public static let config: UInt16 = 1
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

public enum KeyCode {
    /// The pointer's buttons (`BTN_LEFT`, `BTN_RIGHT`, `BTN_MIDDLE`): what an action clicks.
    public static let btnLeft: UInt16 = 0x110
    public static let btnRight: UInt16 = 0x111
    public static let btnMiddle: UInt16 = 0x112
    /// `BTN_DIGI`, the first of the touch and tool buttons (`BTN_DIGI` through `BTN_TOOL_QUADTAP`).
    public static let btnDigi: UInt16 = 0x140
    public static let btnToolFinger: UInt16 = 0x145
    public static let btnTouch: UInt16 = 0x14a
    /// `BTN_TOOL_QUADTAP`, the last of the touch and tool buttons.
    public static let btnToolQuadTap: UInt16 = 0x14f
    /// One past `KEY_MAX`.
    public static let count = 0x300
}

public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let pressure: UInt16 = 0x18
    /// `ABS_DISTANCE`: a hovering tool's distance, sent only while `BTN_TOUCH` is 0.
    public static let distance: UInt16 = 0x19
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtTouchMinor: UInt16 = 0x31
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtTrackingID: UInt16 = 0x39
    public static let mtPressure: UInt16 = 0x3a
    public static let mtDistance: UInt16 = 0x3b
    /// One past `ABS_MAX`.
    public static let count = 0x40
}

/// `ABS_MT_TOOL_TYPE` values (`MT_TOOL_*`).
public enum MTTool {
    public static let finger: Int32 = 0
    public static let pen: Int32 = 1
    /// The firmware decided the contact is a palm (hid-multitouch: a contact without Confidence).
    public static let palm: Int32 = 2
    /// A rotary knob placed on the screen (hid-multitouch: the System Multi-Axis Controller of a Dell Canvas
    /// totem), not a finger.
    public static let dial: Int32 = 10
    /// `MT_TOOL_MAX`: the top of the axis a clone declares for the tool type.
    public static let maximum: Int32 = 15
}

/// Input device properties (`INPUT_PROP_*`).
public enum InputProperty {
    public static let pointer: UInt16 = 0x00
    public static let direct: UInt16 = 0x01
    public static let buttonpad: UInt16 = 0x02
    public static let semiMT: UInt16 = 0x03
    public static let pressurePad: UInt16 = 0x07
    public static let count = 0x20
}

/// `BUS_*` numbers the daemon treats specially (`linux/input.h`).
public enum BusType {
    /// uinput and other software devices: test rigs, remote desktops. What they learn is not saved.
    public static let virtual: UInt16 = 0x06
}
