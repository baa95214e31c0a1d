/// Why a configuration file (or a device's merged calibration) was rejected, with the file and line.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        /// A line that is neither a section header, a comment, nor `key = value`.
        case lineWithoutEquals(String)
        /// `= value` with nothing before the `=`.
        case emptyKey
        /// `key =` with nothing after the `=`.
        case emptyValue(key: String, expected: String)
        /// A key before the first section header.
        case keyOutsideSection(key: String)
        /// A key a device section does not know.
        case unknownDeviceKey(key: String, section: String)
        /// A key `[pressured]` does not know.
        case unknownSettingsKey(key: String)
        /// A key `[haptics]` does not know.
        case unknownHapticsKey(key: String)
        /// A second `[haptics]` section in one file.
        case duplicateHapticsSection(firstLine: Int)
        /// A value that is not one of the words (or forms) the key takes.
        case invalidChoice(key: String, value: String, expected: String)
        /// A key an `[action]` section does not know.
        case unknownActionKey(key: String)
        /// An `[action]` section without `Gesture` or `Does` (`key`: the first missing).
        case missingActionKey(key: String)
        /// `Does = key:…` naming keys that cannot be pressed.
        case invalidKeys(key: String, value: String, problem: KeyCombination.Problem)
        /// An `Area` rectangle that is not `WIDTHxHEIGHT+X+Y`.
        case invalidArea(key: String, value: String, expected: String)
        /// A key an `[app ID]` section does not know.
        case unknownAppKey(key: String, app: String)
        /// A user or group name the system's account database does not know
        /// (``Configuration/resolvingAccounts(_:)``).
        case unknownAccount(key: String, account: Account)
        /// A key given twice in one section.
        case duplicateKey(key: String, firstLine: Int)
        /// A `[` with no closing `]` on its line.
        case unterminatedSectionHeader(String)
        /// Something other than a comment after a section header's `]`.
        case textAfterSectionHeader(String)
        /// `[]`, or a title of only whitespace.
        case emptySectionTitle
        /// A second `[pressured]` section in one file.
        case duplicateSettingsSection(firstLine: Int)
        /// A device section with no `Match*` key.
        case missingMatch(section: String)
        case malformedGlob(key: String, pattern: String, problem: Glob.Problem)
        /// Not a number of the expected kind.
        case invalidNumber(key: String, value: String, expected: String)
        /// A number outside the key's range.
        case outOfRange(key: String, value: String, expected: String)
        case invalidBool(key: String, value: String)
        case invalidSensitivity(key: String, value: String)
        case invalidBus(key: String, value: String)
        /// The merged calibration for a device breaks `floor < average <= top`, or its span overflows.
        case invalidCalibration(device: String, floor: Int32, average: Int32, top: Int32, sources: CalibrationSources)
        /// One section sets `PressureTouchDown` at or below its `PressureTouchUp` (`otherLine`: the first of
        /// the two).
        case touchThresholdsReversed(down: Int32, up: Int32, otherLine: Int)
        /// The merged touch thresholds for a device break `minimum < up < down <= maximum` of its axis.
        case invalidTouchThresholds(device: String, down: Int64, up: Int64, axis: AbsInfo, sources: TouchThresholdSources)
    }

    public var file: String
    /// 1-based line number, or 0 when the error is not about one line.
    public var line: Int
    public var reason: Reason

    public init(file: String, line: Int, reason: Reason) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    public var description: String {
        let place = file.isEmpty ? "" : line > 0 ? "\(file):\(line): " : "\(file): "
        return place + message
    }

    /// The message without the place.
    public var message: String {
        switch reason {
        case .lineWithoutEquals(let text):
            return "expected 'key = value' or a '[section]' header, found '\(text)'"
        case .emptyKey: return "expected a key before '='"
        case .emptyValue(let key, let expected): return "\(key) has no value: expected \(expected)"
        case .keyOutsideSection(let key):
            return "\(key) is outside any section: expected a '[pressured]' or '[device name]' header first"
        case .unknownDeviceKey(let key, let section):
            let hint = ConfigurationParser.settingsKeys.contains(key) ? " (\(key) belongs in [pressured])" : ""
            return "unknown key \(key) in device section [\(section)]\(hint): expected one of "
                + DeviceSection.Key.all.joined(separator: ", ")
                + ConfigurationParser.caseHint(key, DeviceSection.Key.all)
        case .unknownSettingsKey(let key):
            return "unknown key \(key) in [pressured]: expected one of "
                + ConfigurationParser.settingsKeys.joined(separator: ", ")
                + ConfigurationParser.caseHint(key, ConfigurationParser.settingsKeys)
        case .unknownHapticsKey(let key):
            return "unknown key \(key) in [haptics]: expected one of " + HapticsSection.Key.all.joined(separator: ", ")
                + ConfigurationParser.caseHint(key, HapticsSection.Key.all)
        case .duplicateHapticsSection(let firstLine):
            return "second [haptics] section (first on line \(firstLine)): expected at most one per file"
        case .invalidChoice(let key, let value, let expected): return "\(key) = \(value): expected \(expected)"
        case .unknownActionKey(let key):
            return "unknown key \(key) in [action]: expected one of " + ActionSection.Key.all.joined(separator: ", ")
                + ConfigurationParser.caseHint(key, ActionSection.Key.all)
        case .missingActionKey(let key):
            return "[action] section has no \(key): expected Gesture (peek, pop or longPress) and Does "
                + "(\(TouchAction.expected))"
        case .invalidKeys(let key, let value, let problem): return "\(key) = \(value): \(problem)"
        case .invalidArea(let key, let value, let expected):
            return "\(key) rectangle '\(value)' is not one: expected \(expected)"
        case .unknownAppKey(let key, let app):
            return "unknown key \(key) in [app \(app)]: expected one of " + AppSection.Key.all.joined(separator: ", ")
                + ConfigurationParser.caseHint(key, AppSection.Key.all)
        case .unknownAccount(let key, let account):
            return "\(key) names the \(account.kind.rawValue) '\(account.text)', which this system does not know: "
                + "expected an existing \(account.kind.rawValue) name or a numeric id"
        case .duplicateKey(let key, let firstLine):
            return "\(key) given twice in one section (first on line \(firstLine)): expected each key at most once"
        case .unterminatedSectionHeader(let text): return "section header '\(text)' has no closing ']'"
        case .textAfterSectionHeader(let text):
            return "unexpected '\(text)' after the section header: expected nothing or a '#' comment"
        case .emptySectionTitle: return "empty section title: expected '[pressured]' or '[a device name]'"
        case .duplicateSettingsSection(let firstLine):
            return "second [pressured] section (first on line \(firstLine)): expected at most one per file"
        case .missingMatch(let section):
            return "device section [\(section)] has no match key: expected at least one of "
                + "MatchName, MatchVendor, MatchProduct, MatchBus"
        case .malformedGlob(let key, let pattern, let problem):
            return "\(key) pattern '\(pattern)' is malformed: \(problem)"
        case .invalidNumber(let key, let value, let expected), .outOfRange(let key, let value, let expected):
            return "\(key) = \(value): expected \(expected)"
        case .invalidBool(let key, let value): return "\(key) = \(value): expected on or off"
        case .invalidSensitivity(let key, let value): return "\(key) = \(value): expected light, medium or firm"
        case .invalidBus(let key, let value):
            return "\(key) = \(value): expected a bus name (usb, bluetooth, i2c, spi, ...) or a BUS_* number"
        case .invalidCalibration(let device, let floor, let average, let top, let sources):
            let values = "PressureFloor \(floor) (\(sources.floor)), PressureAverage \(average) "
                + "(\(sources.average)), PressureTop \(top) (\(sources.top))"
            if floor < average && average <= top {
                return "calibration for '\(device)' spans more than \(Int32.max) raw units: \(values)"
            }
            return "calibration for '\(device)' is invalid: expected floor < average <= top, got \(values)"
        case .touchThresholdsReversed(let down, let up, let otherLine):
            return "PressureTouchDown \(down) is not above PressureTouchUp \(up) (the other on line \(otherLine)): "
                + "expected a touch to begin at a higher pressure than it ends"
        case .invalidTouchThresholds(let device, let down, let up, let axis, let sources):
            return "touch thresholds for '\(device)' are invalid: expected \(axis.minimum) < PressureTouchUp < "
                + "PressureTouchDown <= \(axis.maximum) (its pressure axis), got PressureTouchDown \(down) "
                + "(\(sources.down)), PressureTouchUp \(up) (\(sources.up))"
        }
    }
}
