/// Reads one file: its structure (sections, keys, comments) here, each section's keys by a reader of
/// its own (``SettingsSectionReader``, ``DeviceSectionReader``, ``HapticsSectionReader``,
/// ``AppSectionReader``, ``ActionSectionReader``). Lines end at `\n` (a `\r` before it is dropped); `#` starts a comment anywhere;
/// whitespace around keys, values and titles is ignored.
struct ConfigurationParser: ConfigurationValueReading {
    static let settingsSection = "pressured"
    static let hapticsSection = "haptics"
    static let settingsKeys = [
        "ForceTouch", "LearnAverageTouch", "Sensitivity", "LongPressMs", "LongPressSlopMm", "QuickActionsDistanceMm",
        "PalmSizeMm", SettingsSection.AccessKey.controlGroup, SettingsSection.AccessKey.launcherUser,
        SettingsSection.AccessKey.launcherGroup, SettingsSection.maxClientsKey,
    ]

    static func caseHint(_ key: String, _ known: [String]) -> String {
        let lower = key.lowercased()
        guard let near = known.first(where: { $0.lowercased() == lower }) else { return "" }
        return " (keys are case-sensitive: did you mean \(near)?)"
    }

    typealias Text = Substring.UnicodeScalarView

    let file: String
    var result = Configuration()
    var settings: SettingsSection?
    var device: DeviceSection?
    var app: AppSection?
    var haptics: HapticsSection?
    var action: ActionSection?
    var inSettings = false
    var inHaptics = false
    var lineNumber = 0

    init(file: String) { self.file = file }

    mutating func parse(_ text: String) throws(ConfigurationError) -> Configuration {
        let all = Substring(text).unicodeScalars
        for rawLine in all.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var content = rawLine
            if let hash = content.firstIndex(of: "#") { content = content[..<hash] }
            content = Self.trimmed(content)
            guard let first = content.first else { continue }
            if first == "[" {
                try header(content)
            } else {
                try keyValue(content)
            }
        }
        try closeSection()
        if let settings { result.settingsSections.append(settings) }
        if let haptics { result.hapticsSections.append(haptics) }
        return result
    }

    // MARK: Structure

    static func trimmed(_ s: Text) -> Text {
        var s = s
        while let c = s.first, isSpace(c) { s.removeFirst() }
        while let c = s.last, isSpace(c) { s.removeLast() }
        return s
    }

    static func isSpace(_ c: Unicode.Scalar) -> Bool {
        c == " " || c == "\t" || c == "\r" || c == "\u{0B}" || c == "\u{0C}" || c == "\u{A0}" || c == "\u{FEFF}"
    }

    static func string(_ s: Text) -> String { String(Substring(s)) }

    mutating func closeSection() throws(ConfigurationError) {
        if let a = app {
            result.appSections.append(a)
            app = nil
        }
        if let a = action {
            action = nil
            for key in [ActionSection.Key.gesture, ActionSection.Key.does] where a.keyLines[key] == nil {
                throw ConfigurationError(file: file, line: a.line, reason: .missingActionKey(key: key))
            }
            result.actionSections.append(a)
        }
        guard let section = device else { return }
        device = nil
        guard !section.match.isEmpty else {
            throw ConfigurationError(file: file, line: section.line, reason: .missingMatch(section: section.title))
        }
        result.sections.append(section)
    }

    mutating func header(_ content: Text) throws(ConfigurationError) {
        guard let close = content.firstIndex(of: "]") else {
            throw fail(.unterminatedSectionHeader(Self.string(content)))
        }
        let rest = Self.trimmed(content[content.index(after: close)...])
        guard rest.isEmpty else { throw fail(.textAfterSectionHeader(Self.string(rest))) }
        let title = Self.string(Self.trimmed(content[content.index(after: content.startIndex)..<close]))
        guard !title.isEmpty else { throw fail(.emptySectionTitle) }
        try closeSection()
        if title == Self.settingsSection {
            if let settings { throw fail(.duplicateSettingsSection(firstLine: settings.line)) }
            settings = SettingsSection(file: file, line: lineNumber)
            inSettings = true
            inHaptics = false
        } else if title == Self.hapticsSection {
            if let haptics { throw fail(.duplicateHapticsSection(firstLine: haptics.line)) }
            haptics = HapticsSection(file: file, line: lineNumber)
            inSettings = false
            inHaptics = true
        } else if title == ActionSection.title {
            action = ActionSection(file: file, line: lineNumber)
            inSettings = false
            inHaptics = false
        } else if let appID = AppSection.appID(fromTitle: title) {
            app = AppSection(app: appID, file: file, line: lineNumber)
            inSettings = false
            inHaptics = false
        } else {
            device = DeviceSection(title: title, file: file, line: lineNumber)
            inSettings = false
            inHaptics = false
        }
    }

    mutating func keyValue(_ content: Text) throws(ConfigurationError) {
        guard let eq = content.firstIndex(of: "=") else { throw fail(.lineWithoutEquals(Self.string(content))) }
        let key = Self.string(Self.trimmed(content[..<eq]))
        let value = Self.string(Self.trimmed(content[content.index(after: eq)...]))
        guard !key.isEmpty else { throw fail(.emptyKey) }
        if inSettings, var section = settings {
            if let first = section.keyLines[key] { throw fail(.duplicateKey(key: key, firstLine: first)) }
            try SettingsSectionReader(file: file, lineNumber: lineNumber).read(key, value, into: &section)
            section.keyLines[key] = lineNumber
            settings = section
        } else if inHaptics, var section = haptics {
            if let first = section.keyLines[key] { throw fail(.duplicateKey(key: key, firstLine: first)) }
            try HapticsSectionReader(file: file, lineNumber: lineNumber).read(key, value, into: &section)
            section.keyLines[key] = lineNumber
            haptics = section
        } else if var section = device {
            if let first = section.keyLines[key] { throw fail(.duplicateKey(key: key, firstLine: first)) }
            try DeviceSectionReader(file: file, lineNumber: lineNumber).read(key, value, into: &section)
            section.keyLines[key] = lineNumber
            device = section
        } else if var section = action {
            if let first = section.keyLines[key] { throw fail(.duplicateKey(key: key, firstLine: first)) }
            try ActionSectionReader(file: file, lineNumber: lineNumber).read(key, value, into: &section)
            section.keyLines[key] = lineNumber
            action = section
        } else if var section = app {
            if let first = section.keyLines[key] { throw fail(.duplicateKey(key: key, firstLine: first)) }
            try AppSectionReader(file: file, lineNumber: lineNumber).read(key, value, into: &section)
            section.keyLines[key] = lineNumber
            app = section
        } else {
            throw fail(.keyOutsideSection(key: key))
        }
    }


}
