/// Everything that shapes gestures, with documented defaults. Distances are in millimetres and converted
/// per device from its axis resolution (``TouchDevice``).
public struct GestureSettings: Hashable, Sendable {
    /// Off: no peek, pop or quick actions, force capability reads unavailable; long press stays.
    public var forceTouchEnabled: Bool = true
    /// Learn each device's average touch from its ordinary touches where nothing configures it
    /// (``AverageTouchLearner``); off, such a device uses the prior from its axis.
    public var learnAverageTouch: Bool = true
    public var sensitivity: Sensitivity = .medium
    /// Touch-and-hold time before `longPress` (iOS and older Android: 500 ms).
    public var longPressDuration: Timestamp.Duration = .milliseconds(500)
    /// How far a finger may wander and still long-press (iOS `allowableMovement` is 10 pt, about 1.6 mm).
    public var longPressSlopMillimetres: Double = 2.0
    /// The upward move during a peek that reveals quick actions (the gesture's specification asks for 10–15 mm).
    public var quickActionsDistanceMillimetres: Double = 12.0
    /// The daemon plays haptic effects on gestures (``HapticSettings``); a control client's `set` can turn
    /// them off for everyone, and `Haptics = off` in the configuration starts them off.
    public var hapticsEnabled: Bool = true

    public init() {}

    public init(
        forceTouchEnabled: Bool = true, sensitivity: Sensitivity = .medium,
        longPressDuration: Timestamp.Duration = .milliseconds(500)
    ) {
        self.forceTouchEnabled = forceTouchEnabled
        self.sensitivity = sensitivity
        self.longPressDuration = longPressDuration
    }
}
