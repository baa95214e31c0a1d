/// What a ``ContactTracker`` needs besides the device to tell a touch from what is not one: the
/// touch-down hysteresis of single-touch panels without `BTN_TOUCH`, and the contact size above which a
/// contact is a palm. ``Configuration/tracking(for:)`` resolves it per device from the `[pressured]`
/// section and the device sections; the defaults need no configuration at all.
public struct TrackerSettings: Hashable, Sendable {
    /// Raw pressure at or above which a touch begins on a single-touch panel without `BTN_TOUCH`; nil
    /// for the default of ``TouchHysteresis/defaults(axis:)``.
    public var touchDown: Int32?
    /// Raw pressure below which such a touch ends; nil for the default.
    public var touchUp: Int32?
    /// Contacts whose `ABS_MT_TOUCH_MAJOR` is larger than this are palms.
    public var palmSize: PalmSize

    /// 25 mm. A fingertip's contact is about 8-12 mm across and a thumb laid flat about 20 mm; a palm,
    /// the heel of a hand or its edge is 30 mm and more. 25 mm sits above every finger with room for a
    /// flat thumb, and below the smallest palm.
    public static let defaultPalmSize = PalmSize.millimetres(25)

    public init(touchDown: Int32? = nil, touchUp: Int32? = nil, palmSize: PalmSize = defaultPalmSize) {
        self.touchDown = touchDown
        self.touchUp = touchUp
        self.palmSize = palmSize
    }
}

/// The contact size above which a contact is taken for a palm (`PalmSizeMm`), or off.
public enum PalmSize: Hashable, Sendable, CustomStringConvertible {
    /// No size-based palms: only contacts the firmware marks `MT_TOOL_PALM` are palms.
    case off
    case millimetres(Double)

    public var description: String {
        switch self {
        case .off: return "off"
        case .millimetres(let mm): return DecimalText.fixed(mm, mm == mm.rounded() ? 0 : 1) + " mm"
        }
    }
}
