import PressureCore

/// The settings and configuration in force, and who may do what under them: the hub's rules, changed by
/// `set`, `reload` and `SIGHUP`, read by every other part.
struct HubSettings: Sendable {
    /// The gesture settings in force (the configuration's, or what a `set` request made of them).
    private(set) var settings: GestureSettings
    /// The configuration in force.
    private(set) var configuration: Configuration
    /// The configuration's haptic settings, kept merged (gestures look them up on the hot path).
    private(set) var haptics: HapticSettings
    /// The daemon's own user: as privileged as root (``AccessPolicy``).
    let daemonUser: UInt32

    init(configuration: Configuration, daemonUser: UInt32) {
        self.configuration = configuration
        settings = configuration.settings
        haptics = configuration.haptics
        self.daemonUser = daemonUser
    }

    /// Who may do what, under the configuration in force (built when asked, so a reload applies to the
    /// clients already connected at once).
    var access: AccessPolicy { AccessPolicy(configuration: configuration, daemonUser: daemonUser) }

    /// What a `set` request makes of the settings in force: `Haptics = off` opens no haptic device, so
    /// nothing a client sets can turn haptics on.
    func settings(after change: SettingsChange) -> GestureSettings {
        var s = change.applied(to: settings)
        if haptics.mode == .off { s.hapticsEnabled = false }
        return s
    }

    /// Takes new settings and configuration; returns whether the settings changed (everyone hears then).
    mutating func take(_ newSettings: GestureSettings, _ newConfiguration: Configuration) -> Bool {
        let changed = newSettings != settings
        settings = newSettings
        configuration = newConfiguration
        haptics = newConfiguration.haptics
        return changed
    }
}
