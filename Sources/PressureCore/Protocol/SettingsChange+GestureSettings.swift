extension SettingsChange {
    /// `settings` with this change applied (the core's settings; the wire carries only the change).
    public func applied(to settings: GestureSettings) -> GestureSettings {
        var s = settings
        if let forceTouch { s.forceTouchEnabled = forceTouch }
        if let sensitivity { s.sensitivity = sensitivity }
        if let haptics { s.hapticsEnabled = haptics }
        return s
    }
}
