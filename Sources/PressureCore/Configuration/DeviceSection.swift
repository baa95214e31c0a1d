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
        public static let filter = "Filter"
        public static let filterPalms = "FilterPalms"
        public static let filterMethod = "FilterMethod"
        public static let all = [
            matchName, matchVendor, matchProduct, matchBus, floor, average, top, touchDown, touchUp, palmSize,
            screenSize, screenRotation, calibrationMatrix, filter, filterPalms, filterMethod,
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
    /// Screen mapping: size in pixels, rotation, calibration matrix (``ScreenOverride``, resolved by ``ResolvedScreen``).
    public var screen = ScreenOverride()
    /// Touch thresholds and palm size (``TrackingOverride``, resolved by ``ResolvedTracking``).
    public var tracking = TrackingOverride()
    /// `Filter`, `FilterPalms`, `FilterMethod` (``FilterMode``); nil where the section does not say.
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
