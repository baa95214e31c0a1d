/// Per-device force calibration and global gesture settings, read from INI-like files in the spirit of
/// libinput's quirks and Android's IDC files. The format is documented in `docs/configuration.md`.
///
/// A file holds at most one `[pressured]` section (``GestureSettings``) and any number of device sections,
/// each matched against a ``DeviceDescription`` by name glob, vendor, product and bus. Several files merge in
/// order (``merged(_:)``); for each key, the last file and the last matching section that set it win.
/// Parsing is pure: it takes the text and a file name for messages, and never reads a file.
public struct Configuration: Hashable, Sendable {
    /// The `[pressured]` sections, in merge order (at most one per file).
    public var settingsSections: [SettingsSection]
    /// The device sections, in merge order (file order, then order within each file).
    public var sections: [DeviceSection]
    /// `[app ID]` sections: static quick actions per app (`Configuration+Apps.swift`).
    public var appSections: [AppSection] = []
    /// `[haptics]` sections, in merge order (at most one per file).
    public var hapticsSections: [HapticsSection] = []

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

/// One device section: how it matches, and the calibration values it sets.
public struct DeviceSection: Hashable, Sendable {
    /// The keys a device section accepts.
    public enum Key {
        public static let matchName = "MatchName"
        public static let matchVendor = "MatchVendor"
        public static let matchProduct = "MatchProduct"
        public static let matchBus = "MatchBus"
        public static let floor = "PressureFloor"
        public static let average = "PressureAverage"
        public static let top = "PressureTop"
        public static let screenSize = "ScreenSize"
        public static let screenRotation = "ScreenRotation"
        public static let calibrationMatrix = "CalibrationMatrix"
        public static let touchDown = "PressureTouchDown"
        public static let touchUp = "PressureTouchUp"
        public static let palmSize = "PalmSizeMm"
        public static let all = [
            matchName, matchVendor, matchProduct, matchBus, floor, average, top, touchDown, touchUp, palmSize,
            screenSize, screenRotation, calibrationMatrix,
        ]
    }

    /// The text between the brackets; descriptive only (titles may repeat).
    public var title: String
    public var file: String
    /// Line of the section header.
    public var line: Int
    public var match: DeviceMatch
    public var floor: Int32?
    public var average: Int32?
    public var top: Int32?
    /// Screen mapping: size in pixels, rotation, calibration matrix (`Configuration+Screen.swift`).
    public var screen = ScreenOverride()
    /// Touch thresholds and palm size (`Configuration+Tracking.swift`).
    public var tracking = TrackingOverride()
    /// The line of every key given, by key.
    public var keyLines: [String: Int]

    public init(
        title: String, file: String, line: Int, match: DeviceMatch = DeviceMatch(),
        floor: Int32? = nil, average: Int32? = nil, top: Int32? = nil, keyLines: [String: Int] = [:]
    ) {
        self.title = title
        self.file = file
        self.line = line
        self.match = match
        self.floor = floor
        self.average = average
        self.top = top
        self.keyLines = keyLines
    }

    /// `[title] file:line`, the line being that of `key` if the section gives it, else of the header.
    public func source(of key: String) -> String { "[\(title)] \(file):\(keyLines[key] ?? line)" }
}

/// The `Match*` keys of a device section. Every key given must match (AND); no key matches every device.
public struct DeviceMatch: Hashable, Sendable, CustomStringConvertible {
    public var name: Glob?
    public var vendor: UInt16?
    public var product: UInt16?
    public var bus: UInt16?

    public init(name: Glob? = nil, vendor: UInt16? = nil, product: UInt16? = nil, bus: UInt16? = nil) {
        self.name = name
        self.vendor = vendor
        self.product = product
        self.bus = bus
    }

    /// No key given: the parser rejects such a section.
    public var isEmpty: Bool { name == nil && vendor == nil && product == nil && bus == nil }

    public func matches(_ device: DeviceDescription) -> Bool {
        if let vendor, vendor != device.identity.vendor { return false }
        if let product, product != device.identity.product { return false }
        if let bus, bus != device.identity.bus { return false }
        if let name, !name.matches(device.name) { return false }
        return true
    }

    public var description: String {
        var parts: [String] = []
        if let name { parts.append("name \(name.pattern)") }
        if let vendor { parts.append("vendor " + DeviceMatch.hex(vendor)) }
        if let product { parts.append("product " + DeviceMatch.hex(product)) }
        if let bus { parts.append("bus " + (DeviceMatch.busName(bus) ?? DeviceMatch.hex(bus))) }
        return parts.isEmpty ? "any device" : parts.joined(separator: ", ")
    }

    static func hex(_ v: UInt16) -> String {
        let digits = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// `MatchBus` names and their `BUS_*` numbers (`linux/input.h`). Aliases follow their canonical name.
    public static let busNames: [(name: String, number: UInt16)] = [
        ("pci", 0x01), ("isapnp", 0x02), ("usb", 0x03), ("hil", 0x04), ("bluetooth", 0x05),
        ("virtual", 0x06), ("isa", 0x10), ("i8042", 0x11), ("ps2", 0x11), ("xtkbd", 0x12),
        ("rs232", 0x13), ("serial", 0x13), ("gameport", 0x14), ("parport", 0x15), ("amiga", 0x16),
        ("adb", 0x17), ("i2c", 0x18), ("host", 0x19), ("gsc", 0x1A), ("atari", 0x1B), ("spi", 0x1C),
        ("rmi", 0x1D), ("cec", 0x1E), ("ishtp", 0x1F), ("intel-ishtp", 0x1F), ("amd-sfh", 0x20),
    ]

    /// The bus number for a name (case-insensitive), or nil.
    public static func busNumber(named name: String) -> UInt16? {
        let lower = name.lowercased()
        return busNames.first { $0.name == lower }?.number
    }

    /// The canonical name of a bus number, or nil.
    public static func busName(_ number: UInt16) -> String? { busNames.first { $0.number == number }?.name }
}

/// An fnmatch-style pattern over Unicode scalars: `*` (any run, also empty), `?` (one scalar), `[abc]`,
/// `[a-z]`, `[!a]` or `[^a]` (a set; `]` first in the set is literal), and `\` escaping the next scalar
/// outside sets. Case-sensitive. Matching takes at most pattern × text steps: no exponential backtracking.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    public let pattern: String
    let tokens: [Token]

    enum Token: Hashable, Sendable {
        case scalar(Unicode.Scalar)
        case any
        case star
        case set(ranges: [ClosedRange<UInt32>], negated: Bool)
    }

    /// Why a pattern is malformed.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// A `[` with no closing `]`; the offset (in scalars) of the `[`.
        case unterminatedSet(offset: Int)
        /// A range such as `z-a` whose end is before its start.
        case reversedRange(String)
        /// A `\` at the end of the pattern, escaping nothing.
        case danglingEscape

        public var description: String {
            switch self {
            case .unterminatedSet(let offset): return "'[' at offset \(offset) has no closing ']'"
            case .reversedRange(let r): return "range '\(r)' ends before it starts"
            case .danglingEscape: return "'\\' at the end escapes nothing"
            }
        }
    }

    public init(_ pattern: String) throws(Problem) {
        let p = Array(pattern.unicodeScalars)
        var tokens: [Token] = []
        var i = 0
        while i < p.count {
            switch p[i] {
            case "*":
                if tokens.last != .star { tokens.append(.star) }
                i += 1
            case "?":
                tokens.append(.any)
                i += 1
            case "\\":
                guard i + 1 < p.count else { throw .danglingEscape }
                tokens.append(.scalar(p[i + 1]))
                i += 2
            case "[":
                let start = i
                i += 1
                var negated = false
                if i < p.count, p[i] == "!" || p[i] == "^" {
                    negated = true
                    i += 1
                }
                var ranges: [ClosedRange<UInt32>] = []
                var first = true
                while true {
                    guard i < p.count else { throw .unterminatedSet(offset: start) }
                    let c = p[i]
                    if c == "]" && !first { break }
                    first = false
                    if i + 2 < p.count, p[i + 1] == "-", p[i + 2] != "]" {
                        let end = p[i + 2]
                        guard c.value <= end.value else {
                            throw .reversedRange(String(String.UnicodeScalarView([c, "-", end])))
                        }
                        ranges.append(c.value...end.value)
                        i += 3
                    } else {
                        ranges.append(c.value...c.value)
                        i += 1
                    }
                }
                i += 1  // the closing ]
                tokens.append(.set(ranges: ranges, negated: negated))
            default:
                tokens.append(.scalar(p[i]))
                i += 1
            }
        }
        self.pattern = pattern
        self.tokens = tokens
    }

    public var description: String { pattern }

    /// Whether the whole of `text` matches. Greedy, with one backtrack point: the last `*` seen.
    public func matches(_ text: String) -> Bool {
        let t = Array(text.unicodeScalars)
        var p = 0, n = 0
        var starToken = -1, starText = 0
        while n < t.count {
            if p < tokens.count {
                let advanced: Bool
                switch tokens[p] {
                case .star:
                    starToken = p
                    starText = n
                    p += 1
                    continue
                case .any: advanced = true
                case .scalar(let c): advanced = c == t[n]
                case .set(let ranges, let negated):
                    advanced = ranges.contains { $0.contains(t[n].value) } != negated
                }
                if advanced {
                    p += 1
                    n += 1
                    continue
                }
            }
            // Mismatch (or pattern used up): let the last star swallow one more scalar, or fail.
            guard starToken >= 0 else { return false }
            starText += 1
            n = starText
            p = starToken + 1
        }
        while p < tokens.count, tokens[p] == .star { p += 1 }
        return p == tokens.count
    }
}
