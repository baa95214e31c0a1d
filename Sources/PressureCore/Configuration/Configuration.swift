/// Per-device force calibration and global gesture settings, read from INI-like files in the spirit of
/// libinput's quirks and Android's IDC files. The format is documented in `docs/configuration.md`.
///
/// A file holds at most one `[pressured]` section (``GestureSettings``) and any number of device sections,
/// each matched against a ``DeviceDescription`` by name glob, vendor, product and bus (and of `[action]`
/// sections, ``ActionSection``). Several files merge in
/// order (``merged(_:)``); for each key, the last file and the last matching section that set it win.
/// Parsing is pure: it takes the text and a file name for messages, and never reads a file.
public struct Configuration: Hashable, Sendable {
    /// The `[pressured]` sections, in merge order (at most one per file).
    public var settingsSections: [SettingsSection]
    /// The device sections, in merge order (file order, then order within each file).
    public var sections: [DeviceSection]
    /// `[app ID]` sections: static quick actions per app (``AppSection``).
    public var appSections: [AppSection] = []
    /// `[haptics]` sections, in merge order (at most one per file).
    public var hapticsSections: [HapticsSection] = []
    /// `[action]` sections, in merge order (``DeviceActions``).
    public var actionSections: [ActionSection] = []

    public init(settingsSections: [SettingsSection] = [], sections: [DeviceSection] = []) {
        self.settingsSections = settingsSections
        self.sections = sections
    }

    /// The effective gesture settings: the documented defaults, overridden key by key by every
    /// `[pressured]` section in order.
    public var settings: GestureSettings {
        var result = GestureSettings()
        for section in settingsSections { section.apply(to: &result) }
        result.hapticsEnabled = haptics.mode != .off
        return result
    }

    /// The effective haptic settings: the documented defaults, overridden key by key by every
    /// `[haptics]` section in order.
    public var haptics: HapticSettings { HapticsSection.merged(hapticsSections) }

    /// Parses one file's text. `file` only names the file in errors and sources.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> Configuration {
        var parser = ConfigurationParser(file: file)
        return try parser.parse(text)
    }

    /// Several parsed files as one, in the order given: later files override earlier ones, key by key.
    public static func merged(_ files: [Configuration]) -> Configuration {
        var result = Configuration()
        for file in files {
            result.settingsSections += file.settingsSections
            result.sections += file.sections
            result.appSections += file.appSections
            result.hapticsSections += file.hapticsSections
            result.actionSections += file.actionSections
        }
        return result
    }

    /// The device sections whose every `Match*` key matches `device`, in merge order.
    public func matchingSections(for device: DeviceDescription) -> [DeviceSection] {
        sections.filter { $0.match.matches(device) }
    }

    /// The calibration for `device`, whose pressure axis is `pressureAxis`, and where each value came from.
    ///
    /// Each of floor, average and top comes from the last matching section that sets it, else from
    /// ``ForceCalibration/uncalibrated(axis:)``. The merged values must satisfy `floor < average <= top`
    /// (and `top - floor` must fit the raw value type); otherwise the error names every section involved.
    public func calibration(
        for device: DeviceDescription, pressureAxis: AbsInfo, udev: UdevDeviceProperties = UdevDeviceProperties()
    ) throws(ConfigurationError) -> ResolvedCalibration {
        // No calibration fits an axis starting at Int32.max (and `uncalibrated` would overflow on it).
        guard pressureAxis.minimum < Int32.max else {
            let m = pressureAxis.minimum
            throw ConfigurationError(
                file: "", line: 0,
                reason: .invalidCalibration(device: device.name, floor: m, average: m, top: m, sources: .init()))
        }
        let defaults = ForceCalibration.uncalibrated(axis: pressureAxis)
        var floor = defaults.floor, average = defaults.average, top = defaults.top
        var sources = CalibrationSources()
        // udev properties (a hwdb entry, a rule) sit between the defaults and the configuration files.
        if let v = udev.floor { (floor, sources.floor) = (v, UdevDeviceProperties.source(UdevDeviceProperties.floorKey)) }
        if let v = udev.average { (average, sources.average) = (v, UdevDeviceProperties.source(UdevDeviceProperties.averageKey)) }
        if let v = udev.top { (top, sources.top) = (v, UdevDeviceProperties.source(UdevDeviceProperties.topKey)) }
        let matched = matchingSections(for: device)
        var lastSetter: DeviceSection?
        for section in matched {
            if let value = section.floor {
                floor = value
                sources.floor = section.source(of: DeviceSection.Key.floor)
                lastSetter = section
            }
            if let value = section.average {
                average = value
                sources.average = section.source(of: DeviceSection.Key.average)
                lastSetter = section
            }
            if let value = section.top {
                top = value
                sources.top = section.source(of: DeviceSection.Key.top)
                lastSetter = section
            }
        }
        let spanFits = Int64(top) - Int64(floor) <= Int64(Int32.max)
        guard spanFits, let calibration = ForceCalibration(floor: floor, average: average, top: top) else {
            throw ConfigurationError(
                file: lastSetter?.file ?? "", line: lastSetter?.line ?? 0,
                reason: .invalidCalibration(
                    device: device.name, floor: floor, average: average, top: top, sources: sources))
        }
        return ResolvedCalibration(calibration: calibration, sources: sources, matchedSections: matched)
    }

    // MARK: Limits: how many clients the daemon serves at once (`MaxClients` in `[pressured]`)

    /// Enough for every app of a kiosk and its tools many times over, and small enough that the unit's
    /// `LimitNOFILE=512` (`systemd/pressured.service`) holds it with the devices and the daemon's own
    /// descriptors: the cap, not the descriptor limit, is what a flood of connections meets.
    public static let defaultMaximumClients = 256
    /// What `MaxClients` may be: each client may have 256 KiB queued, so 4096 bound the queues to 1 GiB.
    public static let maximumClientsRange = 1...4096

    /// The most clients served at once: `MaxClients` of the last `[pressured]` section that sets it, else
    /// ``defaultMaximumClients``. A reload that lowers it keeps every client connected; newcomers are
    /// turned away until fewer than it remain.
    public var maximumClients: Int {
        settingsSections.last { $0.maxClients != nil }?.maxClients ?? Self.defaultMaximumClients
    }

    // MARK: Who may do what

    /// Root and the daemon's own user may control; so may the members of these groups (`ControlGroup`, the
    /// last `[pressured]` section that sets it).
    public var controlGroups: [Account] { settingsSections.last { $0.controlGroups != nil }?.controlGroups ?? [] }

    /// Who may choose quick actions for other apps (`LauncherUser`, `LauncherGroup`, each from the last
    /// `[pressured]` section that sets it); empty: no launcher is named.
    public var launchers: AccountRule {
        AccountRule(
            users: settingsSections.last { $0.launcherUsers != nil }?.launcherUsers ?? [],
            groups: settingsSections.last { $0.launcherGroups != nil }?.launcherGroups ?? [])
    }

    /// Who may be `app` (subscribe as it, set its quick actions, receive its choices): the `User` and
    /// `Group` of the last `[app ID]` section for it that gives either, with that section; nil where none
    /// does: the app is open to any client.
    public func access(forApp app: String) -> (rule: AccountRule, section: AppSection)? {
        guard let s = appSections.last(where: { $0.app == app && ($0.users != nil || $0.groups != nil) }) else {
            return nil
        }
        return (AccountRule(users: s.users ?? [], groups: s.groups ?? []), s)
    }

    /// The configuration with every account name resolved to its id through `directory`; a name it does
    /// not know is an error naming its file and line (a closed app whose user is missing would otherwise
    /// be closed to everyone without a word).
    public func resolvingAccounts(_ directory: some AccountDirectory) throws(ConfigurationError) -> Configuration {
        try AccountResolver(directory: directory).resolve(self)
    }

    // MARK: Apps, screens, tracking

    /// An app's static quick actions: those of the last `[app ID]` section for it that lists any, as a
    /// whole (a later section that only says who the app is keeps them).
    public func staticQuickActions(forApp app: String) -> [QuickActionItem] {
        appSections.last { $0.app == app && !$0.items.isEmpty }?.orderedItems ?? []
    }

    /// The screen geometry of `device` (``ResolvedScreen``): size and rotation from the last matching
    /// sections that give them, the calibration matrix from the configuration, else from udev's
    /// `LIBINPUT_CALIBRATION_MATRIX` (`udevMatrix`), else identity.
    public func screen(for device: TouchDevice, udevMatrix: [Double]? = nil) -> ResolvedScreen {
        ResolvedScreen.resolve(for: device, sections: matchingSections(for: device.description), udevMatrix: udevMatrix)
    }

    /// The palm size for `device` and where it came from (``ResolvedTracking/palmSize(settingsSections:matching:)``).
    public func palmSize(for device: DeviceDescription) -> (size: PalmSize, source: String) {
        ResolvedTracking.palmSize(settingsSections: settingsSections, matching: matchingSections(for: device))
    }

    /// What the tracker of `device` uses (``ResolvedTracking/resolve(for:in:)``).
    public func tracking(for device: TouchDevice) throws(ConfigurationError) -> ResolvedTracking {
        try ResolvedTracking.resolve(for: device, in: self)
    }
}


/// Where each calibration value came from: `[title] file:line` of the key that set it, or `default`.
public struct CalibrationSources: Hashable, Sendable, CustomStringConvertible {
    public static let defaultSource = "default"
    public var floor: String
    public var average: String
    public var top: String

    public init(floor: String = defaultSource, average: String = defaultSource, top: String = defaultSource) {
        self.floor = floor
        self.average = average
        self.top = top
    }

    public var description: String { "floor from \(floor), average from \(average), top from \(top)" }
}

/// A device's calibration, with the provenance `pressurectl` shows.
public struct ResolvedCalibration: Hashable, Sendable {
    public var calibration: ForceCalibration
    public var sources: CalibrationSources
    /// Every section that matched the device, in merge order (including those that set no pressure key).
    public var matchedSections: [DeviceSection]

    public init(calibration: ForceCalibration, sources: CalibrationSources, matchedSections: [DeviceSection]) {
        self.calibration = calibration
        self.sources = sources
        self.matchedSections = matchedSections
    }
}
