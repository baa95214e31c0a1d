extension PublicSettings {
    /// The part of the gesture settings apps are told.
    public init(_ s: GestureSettings) {
        self.init(forceTouch: s.forceTouchEnabled, sensitivity: s.sensitivity, haptics: s.hapticsEnabled)
    }
}
