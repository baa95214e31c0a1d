/// Why a device's force capability reads `unavailable`: what `pressurectl devices` and `status` show,
/// and the `forceUnavailable` field apps get with each device. Long press works in every case.
public enum ForceUnavailableReason: Error, Hashable, Sendable {
    /// The device reports no pressure axis (or one with a single value).
    case noPressure
    /// `ForceTouch = off`, or a `set` request turned it off.
    case turnedOff
    /// The average touch is still being learned from the first ordinary touches.
    case learning(touches: Int, needed: Int)
    /// The average touch is within a few raw units of the floor: pressure has too few levels to tell
    /// an ordinary touch from a press (a 9-level resistive matrix).
    case tooFewLevels(levels: Int)
    /// The panel's pressure never changes within a touch: it reports a constant.
    case flat
    /// The panel's pressure is its contact size: on its ordinary touches `ABS_MT_PRESSURE` equals
    /// `ABS_MT_TOUCH_MAJOR` on every frame that carries both (the ASUS TF201), so it grows with a flatter
    /// finger, not with force.
    case pressureIsSize
    /// The top of the range is too close to the average touch for a peek above ordinary touches and a
    /// pop above that (ordinary touches already near the top, or a saturating sensor).
    case noHeadroom(top: Double, needed: Double)
    /// A reason as read from the wire (``init(code:explanation:)``).
    case other(code: String, explanation: String)

    /// A reason read from the wire: its code, and the daemon's explanation where it gave one (the
    /// numbers in it cannot be rebuilt from the code alone).
    public init(code: String, explanation: String?) {
        self = .other(code: code, explanation: explanation ?? code)
    }

    /// The word apps get (`docs/protocol.md`): `no-pressure`, `off`, `learning`, `too-few-levels`,
    /// `flat`, `pressure-is-size`, `no-headroom`.
    public var code: String {
        switch self {
        case .noPressure: return "no-pressure"
        case .turnedOff: return "off"
        case .learning: return "learning"
        case .tooFewLevels: return "too-few-levels"
        case .flat: return "flat"
        case .pressureIsSize: return "pressure-is-size"
        case .noHeadroom: return "no-headroom"
        case .other(let code, _): return code
        }
    }

    /// A few words for a table column: `learning, 3 of 8 touches`, `no headroom`.
    public var brief: String {
        switch self {
        case .noPressure: return "no pressure"
        case .turnedOff: return "force touch off"
        case .learning(let touches, let needed): return "learning, \(touches) of \(needed) touches"
        case .tooFewLevels: return "too few levels"
        case .flat: return "flat pressure"
        case .pressureIsSize: return "pressure is size"
        case .noHeadroom: return "no headroom"
        case .other(let code, _): return code
        }
    }

    /// One phrase for people.
    public var explanation: String {
        switch self {
        case .noPressure: return "the device reports no pressure"
        case .turnedOff: return "force touch is turned off"
        case .learning(let touches, let needed):
            return "learning the average touch (\(touches) of \(needed) ordinary touches)"
        case .tooFewLevels(let levels):
            return "pressure has too few levels (an average touch is \(levels) raw units above the floor)"
        case .flat: return "pressure does not change within a touch"
        case .pressureIsSize: return "pressure only repeats the contact's size (it equals the touch major)"
        case .noHeadroom(let top, let needed):
            return "no headroom: the top of the range is \(DecimalText.fixed(top, 2)) average touches, "
                + "peek and pop need \(DecimalText.fixed(needed, 2))"
        case .other(_, let explanation): return explanation
        }
    }
}
