/// A device interpreted for touch: which axes carry positions and pressure, which protocol it speaks,
/// whether it is a screen or a pad, and whether it can report force.
public struct TouchDevice: Hashable, Sendable {
    /// A screen the finger touches directly, or a pad the finger moves a pointer with (the wire's name).
    public typealias Kind = DeviceKind

    /// How the kernel reports contacts.
    public enum ContactProtocol: Hashable, Sendable {
        /// Multi-touch protocol B: slots and tracking ids. The payload is the slot count.
        case slotted(slots: Int)
        /// Multi-touch protocol A: anonymous contacts, each closed by `SYN_MT_REPORT`.
        case anonymous
        /// One contact: `ABS_X`, `ABS_Y`, optional `ABS_PRESSURE`, and `BTN_TOUCH` (resistive panels).
        case singleTouch
    }

    /// iOS `UIForceTouchCapability`: what an app may rely on (the wire's name).
    public typealias ForceCapability = PressureProtocol.ForceCapability

    /// Why a description is not a touch device.
    public struct NotATouchDevice: Error, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            /// Neither `ABS_MT_POSITION_X/Y` nor `ABS_X/Y`.
            case noPositions
            /// A knob resting on the screen (its only tool is `MT_TOOL_DIAL`, or the kernel named it a
            /// System Multi-Axis Controller), whose stillness would read as long presses.
            case dial
        }

        public var name: String
        public var reason: Reason = .noPositions
        public var description: String {
            switch reason {
            case .noPositions:
                "\"\(name)\" is not a touch device: it declares neither ABS_MT_POSITION_X/Y nor ABS_X/Y"
            case .dial:
                "\"\(name)\" is not a touch device: it is a dial (a System Multi-Axis Controller, MT_TOOL_DIAL)"
            }
        }
    }

    /// Slots beyond this are ignored even where a device declares more: real panels track at most a few
    /// dozen fingers, and a bound keeps a hostile description from costing memory.
    public static let maximumSlots = 64

    public var description: DeviceDescription
    public var kind: Kind
    public var contactProtocol: ContactProtocol
    public var xAxis: AbsInfo
    public var yAxis: AbsInfo
    /// The pressure axis attributed per contact, if any: `ABS_MT_PRESSURE`, or `ABS_PRESSURE` on a
    /// single-touch panel.
    public var pressureAxis: AbsInfo?
    /// Whether per-contact tracking ids exist (always for protocol B; optional for protocol A).
    public var hasTrackingID: Bool
    /// Whether `BTN_TOUCH` exists (single-touch panels without it are touching by pressure, with
    /// ``TouchHysteresis``).
    public var hasTouchButton: Bool
    /// `ABS_MT_TOUCH_MAJOR` (the length of the contact's major axis), where a multi-touch device declares it.
    public var touchMajorAxis: AbsInfo?
    /// Whether `ABS_MT_TOOL_TYPE` exists, so that the firmware can mark a contact `MT_TOOL_PALM`.
    public var hasToolType: Bool
    /// Whether `ABS_MT_DISTANCE` exists (with a minimum of 0 or below, so that 0, touching, can be said):
    /// contacts may then hover, in range but not touching.
    public var hasHoverDistance: Bool

    public init(_ d: DeviceDescription) throws(NotATouchDevice) {
        description = d
        let abs = EventType.abs
        let hasMTPosition = d.axis(AbsCode.mtPositionX) != nil && d.axis(AbsCode.mtPositionY) != nil
        hasTouchButton = d.has(type: EventType.key, code: KeyCode.btnTouch)
        hasTrackingID = d.axis(AbsCode.mtTrackingID) != nil || d.has(type: abs, code: AbsCode.mtTrackingID)
        touchMajorAxis = nil
        hasToolType = false
        hasHoverDistance = false
        if Self.isDial(d) { throw NotATouchDevice(name: d.name, reason: .dial) }
        if hasMTPosition, let x = d.axis(AbsCode.mtPositionX), let y = d.axis(AbsCode.mtPositionY) {
            // The kernel's single-touch emulation (ABS_X/Y/PRESSURE, BTN_TOUCH) is ignored here.
            xAxis = x
            yAxis = y
            pressureAxis = d.axis(AbsCode.mtPressure)
            touchMajorAxis = d.axis(AbsCode.mtTouchMajor)
            hasToolType = d.axis(AbsCode.mtToolType) != nil
            hasHoverDistance = d.axis(AbsCode.mtDistance).map { $0.minimum <= 0 } ?? false
            if let slot = d.axis(AbsCode.mtSlot) {
                let declared = Int(slot.maximum) - Int(max(0, slot.minimum)) + 1
                contactProtocol = .slotted(slots: min(max(1, declared), Self.maximumSlots))
            } else {
                contactProtocol = .anonymous
            }
        } else if let x = d.axis(AbsCode.x), let y = d.axis(AbsCode.y) {
            xAxis = x
            yAxis = y
            pressureAxis = d.axis(AbsCode.pressure)
            contactProtocol = .singleTouch
        } else {
            throw NotATouchDevice(name: d.name)
        }
        if d.properties.contains(InputProperty.direct) {
            kind = .touchscreen
        } else if d.properties.contains(InputProperty.pointer)
            || d.properties.contains(InputProperty.buttonpad)
            || d.properties.contains(InputProperty.pressurePad)
            || d.has(type: EventType.key, code: KeyCode.btnToolFinger)
        {
            kind = .touchpad
        } else {
            // Old recordings set no properties: udev's rule (absolute axes and BTN_TOUCH without a
            // finger tool) calls that a touchscreen, and so do we.
            kind = .touchscreen
        }
    }

    /// A System Multi-Axis Controller (the Dell Canvas totem, a knob placed on the screen), which udev
    /// calls a touchscreen: hid-multitouch gives it multi-touch positions, `INPUT_PROP_DIRECT` and a tool
    /// type of `MT_TOOL_DIAL` alone where its collection has contact identifiers, and otherwise hid-input's
    /// `ABS_X/Y` under its name with the " System Multi Axis" suffix (Linux 6.1, advanced_silicon 2575:0204).
    static func isDial(_ d: DeviceDescription) -> Bool {
        if let tool = d.axis(AbsCode.mtToolType), tool.minimum == MTTool.dial, tool.maximum == MTTool.dial {
            return true
        }
        return d.name.hasSuffix(" System Multi Axis")
    }

    /// Whether the hardware reports pressure a contact can be given force from.
    public var hasPressure: Bool {
        guard let p = pressureAxis else { return false }
        return p.maximum > p.minimum
    }

    /// Size of the touch surface in millimetres, where the axes say their resolution.
    public var sizeMillimetres: (width: Double, height: Double)? {
        guard xAxis.resolution > 0, yAxis.resolution > 0 else { return nil }
        return (Double(xAxis.span) / Double(xAxis.resolution), Double(yAxis.span) / Double(yAxis.resolution))
    }

    /// Units of `ABS_MT_TOUCH_MAJOR` per millimetre for telling palms by size, or nil where the axis has no
    /// resolution (or the device is single-touch): such panels never get size-based palms.
    ///
    /// Where the position axes declare a finer resolution than the touch major axis, that one is used:
    /// the multi-touch protocol gives `ABS_MT_TOUCH_MAJOR` in surface units, while hid-multitouch gives the
    /// axis the resolution of the HID Width field, which real firmware gets wrong. The Sharp 04dd:9681's
    /// ordinary touches read 22-77 units at 1 unit/mm on its touch major (22-77 mm, no finger is that
    /// large) but 5.5-19 mm at the 4 units/mm of its surface. Taking the reading that makes a contact smaller means
    /// a disagreement between the two never turns a finger into a palm.
    public var contactSizeUnitsPerMillimetre: Double? {
        guard let major = touchMajorAxis, major.resolution > 0 else { return nil }
        return Double(max(major.resolution, xAxis.resolution, yAxis.resolution))
    }

    /// Fraction of the y range standing for the quick-actions swipe when the axis has no resolution:
    /// 8% is 12 mm on a 150 mm tall panel, the middle of the 10–15 mm the gesture asks for.
    public static let quickActionsFractionWithoutResolution = 0.08
    /// Fraction of each axis range standing for the long-press slop when the axis has no resolution:
    /// 1% is 2–3 mm on panels of 200–300 mm.
    public static let slopFractionWithoutResolution = 0.01

    /// Device units per millimetre on an axis, or nil when the axis has no resolution.
    static func unitsPerMillimetre(_ axis: AbsInfo) -> Double? {
        axis.resolution > 0 ? Double(axis.resolution) : nil
    }

    /// A distance in millimetres expressed in units of an axis (with the fallback fraction when the axis
    /// has no resolution).
    func units(millimetres: Double, on axis: AbsInfo, fallbackFraction: Double) -> Double {
        if let perMM = Self.unitsPerMillimetre(axis) { return millimetres * perMM }
        return Double(axis.span) * fallbackFraction
    }
}
