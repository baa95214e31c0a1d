/// One `[pressured]` section: the gesture settings it sets; `nil` keeps the value from before.
public struct SettingsSection: Hashable, Sendable {
    public var file: String
    /// Line of the `[pressured]` header.
    public var line: Int
    public var forceTouchEnabled: Bool?
    public var learnAverageTouch: Bool?
    public var sensitivity: Sensitivity?
    public var longPressMilliseconds: Int64?
    public var longPressSlopMillimetres: Double?
    public var quickActionsDistanceMillimetres: Double?
    /// `PalmSizeMm`: for the tracker, not gestures (``Configuration/palmSize(for:)``).
    public var palmSize: PalmSize?
    /// `ControlGroup`, `LauncherUser`, `LauncherGroup`: who may control, who may choose for other apps
    /// (`Account.swift`); nil where the section does not say.
    public var controlGroups: [Account]?
    public var launcherUsers: [Account]?
    public var launcherGroups: [Account]?
    /// `MaxClients`: the most clients served at once (``Configuration/maximumClients``).
    public var maxClients: Int?
    /// `Filter`, `FilterPalms`, `FilterMethod` for every touchscreen (``FilterMode``); a device section's win.
    public var filterKeys = FilterKeys()
    public var filter: Bool? {
        get { filterKeys.on }
        set { filterKeys.on = newValue }
    }
    public var filterPalms: Bool? {
        get { filterKeys.palms }
        set { filterKeys.palms = newValue }
    }
    public var filterMethod: FilterMethod? {
        get { filterKeys.method }
        set { filterKeys.method = newValue }
    }
    /// The line of every key given, by key.
    public var keyLines: [String: Int] = [:]

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// Overrides the values this section sets.
    public func apply(to settings: inout GestureSettings) {
        if let v = forceTouchEnabled { settings.forceTouchEnabled = v }
        if let v = learnAverageTouch { settings.learnAverageTouch = v }
        if let v = sensitivity { settings.sensitivity = v }
        if let v = longPressMilliseconds { settings.longPressDuration = .milliseconds(v) }
        if let v = longPressSlopMillimetres { settings.longPressSlopMillimetres = v }
        if let v = quickActionsDistanceMillimetres { settings.quickActionsDistanceMillimetres = v }
    }
}

extension SettingsSection {
    /// The keys of who may do what (the gesture keys are ``ConfigurationParser/settingsKeys``' others).
    public enum AccessKey {
        public static let controlGroup = "ControlGroup"
        public static let launcherUser = "LauncherUser"
        public static let launcherGroup = "LauncherGroup"
    }

    /// The key of the daemon's limits (``Configuration/maximumClients``).
    public static let maxClientsKey = "MaxClients"
}
