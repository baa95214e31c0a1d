/// The settings apps see (`hello`, `settings` events, `set` and `reload` replies).
public struct PublicSettings: Hashable, Sendable {
    public var forceTouch: Bool
    public var sensitivity: Sensitivity

    public init(forceTouch: Bool, sensitivity: Sensitivity) {
        self.forceTouch = forceTouch
        self.sensitivity = sensitivity
    }
}
