/// What a device section says about telling touches apart; every key is optional and the last matching
/// section that gives one wins, as for calibration.
public struct TrackingOverride: Hashable, Sendable {
    /// `PressureTouchDown`: raw pressure at which a touch begins (single-touch panels without `BTN_TOUCH`).
    public var touchDown: Int32?
    /// `PressureTouchUp`: raw pressure below which it ends.
    public var touchUp: Int32?
    /// `PalmSizeMm` for this device, over the `[pressured]` one.
    public var palmSize: PalmSize?

    public init() {}
}

/// Where each touch threshold came from: `[title] file:line`, or `default (…)`.
public struct TouchThresholdSources: Hashable, Sendable {
    public var down: String
    public var up: String

    public init(down: String, up: String) {
        self.down = down
        self.up = up
    }
}

/// A device's tracker settings, with the provenance `pressurectl` can show.
public struct ResolvedTracking: Hashable, Sendable {
    public var settings: TrackerSettings
    /// The touch thresholds in force, for a single-touch panel without `BTN_TOUCH` (nil for any other
    /// device, which touches by tracking id or `BTN_TOUCH`).
    public var hysteresis: TouchHysteresis?
    public var hysteresisSources: TouchThresholdSources?
    public var palmSizeSource: String
}

extension ResolvedTracking {
    /// The palm size for `device`, given the configuration's `[pressured]` sections and the device sections
    /// that match it: the last matching device section that sets `PalmSizeMm`, else the last
    /// `[pressured]` section that does, else ``TrackerSettings/defaultPalmSize``. A device section wins over
    /// `[pressured]` whatever the file order: it is the more specific.
    static func palmSize(
        settingsSections: [SettingsSection], matching: [DeviceSection]
    ) -> (size: PalmSize, source: String) {
        var result = (size: TrackerSettings.defaultPalmSize, source: CalibrationSources.defaultSource)
        for s in settingsSections {
            if let v = s.palmSize { result = (v, "[pressured] \(s.file):\(s.keyLines["PalmSizeMm"] ?? s.line)") }
        }
        for section in matching {
            if let v = section.tracking.palmSize { result = (v, section.source(of: DeviceSection.Key.palmSize)) }
        }
        return result
    }

    /// What the tracker of `device` uses, under `configuration`. `PressureTouchDown` and `PressureTouchUp` each come from the last
    /// matching section that sets them, else from ``TouchHysteresis/defaults(axis:)``; they apply only to
    /// single-touch panels without `BTN_TOUCH` and are checked only there: the merged pair must satisfy
    /// `minimum < up < down <= maximum` of the pressure axis, or the error names both and their sources (at
    /// the last section that set one).
    static func resolve(
        for device: TouchDevice, in configuration: Configuration
    ) throws(ConfigurationError) -> ResolvedTracking {
        let matching = configuration.matchingSections(for: device.description)
        let palm = palmSize(settingsSections: configuration.settingsSections, matching: matching)
        var settings = TrackerSettings(palmSize: palm.size)
        var resolved = ResolvedTracking(settings: settings, palmSizeSource: palm.source)
        guard device.contactProtocol == .singleTouch, !device.hasTouchButton, let axis = device.pressureAxis else {
            return resolved
        }
        let defaults = TouchHysteresis.defaults(axis: axis)
        var sources = TouchThresholdSources(
            down: "default (minimum + 12% of the range)", up: "default (minimum + 10% of the range)")
        var lastSetter: DeviceSection?
        for section in matching {
            if let v = section.tracking.touchDown {
                (settings.touchDown, lastSetter) = (v, section)
                sources.down = section.source(of: DeviceSection.Key.touchDown)
            }
            if let v = section.tracking.touchUp {
                (settings.touchUp, lastSetter) = (v, section)
                sources.up = section.source(of: DeviceSection.Key.touchUp)
            }
        }
        let down = settings.touchDown.map(Int64.init) ?? defaults.down
        let up = settings.touchUp.map(Int64.init) ?? defaults.up
        if let section = lastSetter, !TouchHysteresis.isValid(down: down, up: up, axis: axis) {
            throw ConfigurationError(
                file: section.file, line: section.line,
                reason: .invalidTouchThresholds(
                    device: device.description.name, down: down, up: up, axis: axis, sources: sources))
        }
        resolved.settings = settings
        resolved.hysteresis = TouchHysteresis(down: down, up: up)
        resolved.hysteresisSources = sources
        return resolved
    }
}
