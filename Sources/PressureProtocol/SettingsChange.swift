/// The fields of a `set` request; at least one is present.
public struct SettingsChange: Hashable, Sendable {
    public var forceTouch: Bool?
    public var sensitivity: Sensitivity?

    public init(forceTouch: Bool? = nil, sensitivity: Sensitivity? = nil) {
        self.forceTouch = forceTouch
        self.sensitivity = sensitivity
    }
}
