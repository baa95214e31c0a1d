/// Reads one file. Lines end at `\n` (a `\r` before it is dropped); `#` starts a comment anywhere;
/// whitespace around keys, values and titles is ignored.
struct ConfigurationParser {
    static let settingsSection = "pressured"
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

    func fail(_ reason: ConfigurationError.Reason) -> ConfigurationError {
        ConfigurationError(file: file, line: lineNumber, reason: reason)
    }

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
            try setting(key, value, in: &section)
            section.keyLines[key] = lineNumber
            settings = section
        } else if inHaptics, var section = haptics {
            if let first = section.keyLines[key] { throw fail(.duplicateKey(key: key, firstLine: first)) }
            try hapticsKey(key, value, in: &section)
            section.keyLines[key] = lineNumber
            haptics = section
        } else if var section = device {
            if let first = section.keyLines[key] { throw fail(.duplicateKey(key: key, firstLine: first)) }
            try deviceKey(key, value, in: &section)
            section.keyLines[key] = lineNumber
            device = section
        } else if var section = app {
            if let first = section.keyLines[key] { throw fail(.duplicateKey(key: key, firstLine: first)) }
            try appKey(key, value, in: &section)
            section.keyLines[key] = lineNumber
            app = section
        } else {
            throw fail(.keyOutsideSection(key: key))
        }
    }

    // MARK: Keys

    mutating func setting(_ key: String, _ value: String, in s: inout SettingsSection) throws(ConfigurationError) {
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

    func boolean(_ key: String, _ value: String) throws(ConfigurationError) -> Bool {
        try requireValue(key, value, "on or off")
        switch value.lowercased() {
        case "on", "true", "yes", "1": return true
        case "off", "false", "no", "0": return false
        default: throw fail(.invalidBool(key: key, value: value))
        }
    }

    mutating func deviceKey(_ key: String, _ value: String, in s: inout DeviceSection) throws(ConfigurationError) {
        let raw = "an integer from \(Int32.min) to \(Int32.max) (raw pressure units; decimal or 0x hex)"
        let id = "an integer from 0 to 0xffff (hex with 0x, or decimal)"
        switch key {
        case DeviceSection.Key.matchName:
            try requireValue(key, value, "a glob such as *FlatFrog*")
            do throws(Glob.Problem) {
                s.match.name = try Glob(value)
            } catch {
                throw fail(.malformedGlob(key: key, pattern: value, problem: error))
            }
        case DeviceSection.Key.matchVendor:
            s.match.vendor = UInt16(truncatingIfNeeded: try integer(key, value, in: 0...0xFFFF, id))
        case DeviceSection.Key.matchProduct:
            s.match.product = UInt16(truncatingIfNeeded: try integer(key, value, in: 0...0xFFFF, id))
        case DeviceSection.Key.matchBus:
            try requireValue(key, value, "a bus name or number")
            if let number = DeviceMatch.busNumber(named: value) {
                s.match.bus = number
            } else if case .value(let number) = Self.parseInteger(value) {
                guard (0...0xFFFF).contains(number) else {
                    throw fail(.outOfRange(key: key, value: value, expected: "a bus number from 0 to 0xffff"))
                }
                s.match.bus = UInt16(truncatingIfNeeded: number)
            } else {
                throw fail(.invalidBus(key: key, value: value))
            }
        case DeviceSection.Key.floor:
            s.floor = Int32(truncatingIfNeeded: try integer(key, value, in: Int64(Int32.min)...Int64(Int32.max), raw))
        case DeviceSection.Key.average:
            s.average = Int32(truncatingIfNeeded: try integer(key, value, in: Int64(Int32.min)...Int64(Int32.max), raw))
        case DeviceSection.Key.top:
            s.top = Int32(truncatingIfNeeded: try integer(key, value, in: Int64(Int32.min)...Int64(Int32.max), raw))
        case DeviceSection.Key.screenSize, DeviceSection.Key.screenRotation, DeviceSection.Key.calibrationMatrix:
            try screenKey(key, value, in: &s.screen)
        case DeviceSection.Key.touchDown, DeviceSection.Key.touchUp, DeviceSection.Key.palmSize:
            try trackingKey(key, value, in: &s)
        default:
            throw fail(.unknownDeviceKey(key: key, section: s.title))
        }
    }

    // MARK: Values

    func requireValue(_ key: String, _ value: String, _ expected: String) throws(ConfigurationError) {
        if value.isEmpty { throw fail(.emptyValue(key: key, expected: expected)) }
    }

    func integer(
        _ key: String, _ value: String, in range: ClosedRange<Int64>, _ expected: String
    ) throws(ConfigurationError) -> Int64 {
        try requireValue(key, value, expected)
        let n: Int64
        switch Self.parseInteger(value) {
        case .value(let v): n = v
        case .overflow: throw fail(.outOfRange(key: key, value: value, expected: expected))
        case .invalid: throw fail(.invalidNumber(key: key, value: value, expected: expected))
        }
        guard range.contains(n) else { throw fail(.outOfRange(key: key, value: value, expected: expected)) }
        return n
    }

    func decimal(
        _ key: String, _ value: String, in range: ClosedRange<Double>, _ expected: String
    ) throws(ConfigurationError) -> Double {
        try requireValue(key, value, expected)
        guard let d = Self.parseDecimal(value) else {
            throw fail(.invalidNumber(key: key, value: value, expected: expected))
        }
        guard range.contains(d) else { throw fail(.outOfRange(key: key, value: value, expected: expected)) }
        return d
    }

    enum IntegerParse: Equatable { case value(Int64), overflow, invalid }

    /// Decimal with an optional sign, or `0x`/`0X` hex. Overflow of Int64 is reported, never trapped.
    static func parseInteger(_ text: String) -> IntegerParse {
        var s = Substring(text).unicodeScalars
        var negative = false
        var radix: Int64 = 10
        if s.first == "-" || s.first == "+" {
            negative = s.first == "-"
            s.removeFirst()
        } else if s.count > 2, s.first == "0", s.dropFirst().first == "x" || s.dropFirst().first == "X" {
            radix = 16
            s.removeFirst(2)
        }
        guard !s.isEmpty else { return .invalid }
        var n: Int64 = 0
        var overflow = false
        for c in s {
            let digit: Int64
            switch c.value {
            case 0x30...0x39: digit = Int64(c.value - 0x30)
            case 0x61...0x66 where radix == 16: digit = Int64(c.value - 0x61 + 10)
            case 0x41...0x46 where radix == 16: digit = Int64(c.value - 0x41 + 10)
            default: return .invalid
            }
            let (shifted, o1) = n.multipliedReportingOverflow(by: radix)
            let (next, o2) =
                negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            overflow = overflow || o1 || o2
            n = next
        }
        return overflow ? .overflow : .value(n)
    }

    /// `digits`, `digits.digits` or `.digits`: no sign, exponent, hex, `inf` or `nan`.
    static func parseDecimal(_ text: String) -> Double? {
        var digits = 0, dots = 0
        for c in text.unicodeScalars {
            if c == "." { dots += 1 } else if ("0"..."9").contains(c) { digits += 1 } else { return nil }
        }
        guard digits > 0, dots <= 1, let d = Double(text), d.isFinite else { return nil }
        return d
    }
}
