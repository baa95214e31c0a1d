/// The `[pressured]` section's keys (`docs/configuration.md`).
struct SettingsSectionReader: ConfigurationValueReading {
    let file: String
    let lineNumber: Int

    func read(_ key: String, _ value: String, into s: inout SettingsSection) throws(ConfigurationError) {
        switch key {
        case "ForceTouch":
            s.forceTouchEnabled = try boolean(key, value)
        case "LearnAverageTouch":
            s.learnAverageTouch = try boolean(key, value)
        case "Sensitivity":
            try requireValue(key, value, "light, medium or firm")
            guard let v = Sensitivity(rawValue: value.lowercased()) else {
                throw fail(.invalidSensitivity(key: key, value: value))
            }
            s.sensitivity = v
        case "LongPressMs":
            s.longPressMilliseconds = try integer(
                key, value, in: 100...5000, "an integer from 100 to 5000 (milliseconds)")
        case "LongPressSlopMm":
            s.longPressSlopMillimetres = try decimal(key, value, in: 0.1...20, "a number from 0.1 to 20 (millimetres)")
        case "QuickActionsDistanceMm":
            s.quickActionsDistanceMillimetres = try decimal(
                key, value, in: 10...15, "a number from 10 to 15 (millimetres)")
        case "PalmSizeMm":
            s.palmSize = try palmSize(key, value)
        case DeviceSection.Key.filter:
            s.filter = try boolean(key, value)
        case DeviceSection.Key.filterPalms:
            s.filterPalms = try boolean(key, value)
        case DeviceSection.Key.filterMethod:
            s.filterMethod = try choice(key, value, FilterMethod.allCases.map { ($0.rawValue, $0) })
        case SettingsSection.AccessKey.controlGroup:
            s.controlGroups = try accounts(key, value, .group)
        case SettingsSection.AccessKey.launcherUser:
            s.launcherUsers = try accounts(key, value, .user)
        case SettingsSection.AccessKey.launcherGroup:
            s.launcherGroups = try accounts(key, value, .group)
        case SettingsSection.maxClientsKey:
            let range = Configuration.maximumClientsRange
            s.maxClients = Int(try integer(
                key, value, in: Int64(range.lowerBound)...Int64(range.upperBound),
                "an integer from \(range.lowerBound) to \(range.upperBound) (clients served at once)"))
        default:
            throw fail(.unknownSettingsKey(key: key))
        }
    }
}
