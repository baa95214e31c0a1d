/// The fields of a `set` request; at least one is present.
public struct SettingsChange: Hashable, Sendable {
    public var forceTouch: Bool?
    public var sensitivity: Sensitivity?
    /// The daemon's haptic effects on or off, for everyone.
    public var haptics: Bool?

    public init(forceTouch: Bool? = nil, sensitivity: Sensitivity? = nil, haptics: Bool? = nil) {
        self.forceTouch = forceTouch
        self.sensitivity = sensitivity
        self.haptics = haptics
    }
}
