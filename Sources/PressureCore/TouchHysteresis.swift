/// When a single-touch panel without `BTN_TOUCH` is touched: a touch begins when the pressure reaches
/// ``down`` and ends when it falls below ``up``. Two thresholds, so that a noisy resistive panel whose
/// pressure wobbles around one of them does not flap between touching and not.
///
/// The comparisons are libinput's (`tp_unhover_pressure`): begin at `pressure >= down`, end at
/// `pressure < up`. Values are kept as `Int64` so that a threshold one past an axis ending at
/// `Int32.max` can still be said ("never").
public struct TouchHysteresis: Hashable, Sendable {
    public var down: Int64
    public var up: Int64

    /// libinput's touchpad defaults (`tp_init_pressure`, "approximately the synaptics defaults"): down at
    /// minimum + 12% of the range and up at minimum + 10%, the range being `maximum - minimum + 1` and the
    /// results truncated as C truncates. Both are kept above the minimum, so a resting panel reads as no
    /// touch even on an axis of a few levels (there the two may coincide: no hysteresis is possible).
    public static func defaults(axis: AbsInfo) -> TouchHysteresis {
        let minimum = Int64(axis.minimum)
        let range = Double(Int64(axis.maximum) - minimum + 1)
        let down = minimum + Int64(0.12 * range)
        let up = minimum + Int64(0.10 * range)
        let floor = minimum + 1
        return TouchHysteresis(down: max(down, max(up, floor)), up: max(up, floor))
    }

    /// The hysteresis for `settings` on `axis`: the configured values where they are valid together
    /// (see ``isValid(down:up:axis:)``), else the defaults. ``Configuration/tracking(for:)`` rejects
    /// invalid values with an error before they get here.
    public static func resolve(_ settings: TrackerSettings, axis: AbsInfo) -> TouchHysteresis {
        let d = defaults(axis: axis)
        let down = settings.touchDown.map(Int64.init) ?? d.down
        let up = settings.touchUp.map(Int64.init) ?? d.up
        guard settings.touchDown != nil || settings.touchUp != nil, isValid(down: down, up: up, axis: axis) else {
            return d
        }
        return TouchHysteresis(down: down, up: up)
    }

    /// Configured thresholds must satisfy `minimum < up < down <= maximum`: a touch must be able to end
    /// (pressure at the minimum is below `up`), to begin (`down` is reachable), and to hold between them.
    public static func isValid(down: Int64, up: Int64, axis: AbsInfo) -> Bool {
        Int64(axis.minimum) < up && up < down && down <= Int64(axis.maximum)
    }

    public init(down: Int64, up: Int64) {
        self.down = down
        self.up = up
    }

    /// Whether `pressure` is a touch, given whether the panel was already held (touching, or a contact
    /// being ignored until it lifts).
    @inline(__always)
    public func isTouching(_ pressure: Int32, held: Bool) -> Bool {
        held ? Int64(pressure) >= up : Int64(pressure) >= down
    }
}
