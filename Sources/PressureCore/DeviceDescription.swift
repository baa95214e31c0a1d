/// The range and quality of one absolute axis (`struct input_absinfo`).
public struct AbsInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre (positions) or per gram (pressure); 0 when the device does not say.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// `maximum - minimum`, never below 1, so fractions of the range never divide by zero.
    public var span: Int64 { max(1, Int64(maximum) - Int64(minimum)) }

    /// The value clamped into the declared range: firmware does send values outside it.
    @inlinable public func clamp(_ value: Int32) -> Int32 { min(max(value, minimum), maximum) }
}

/// Bus, vendor, product and version, as in `struct input_id`.
public struct DeviceIdentity: Hashable, Sendable {
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16

    public init(bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0) {
        self.bus = bus
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// What a device says about itself: the header of an evemu or `libinput record` capture, or what
/// libevdev reads from a live node. Plain data; ``TouchDevice`` interprets it.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var identity: DeviceIdentity
    /// `INPUT_PROP_*` numbers the device sets.
    public var properties: Set<UInt16>
    /// Supported codes, by event type.
    public var codes: [UInt16: Set<UInt16>]
    /// Axis ranges, by `ABS_*` code.
    public var absInfo: [UInt16: AbsInfo]

    public init(
        name: String, identity: DeviceIdentity = DeviceIdentity(), properties: Set<UInt16> = [],
        codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: AbsInfo] = [:]
    ) {
        self.name = name
        self.identity = identity
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
    }

    public func has(type: UInt16, code: UInt16) -> Bool { codes[type]?.contains(code) ?? false }

    /// The axis, if the device declares it (an `A:` line or an `absinfo` entry is what counts).
    public func axis(_ code: UInt16) -> AbsInfo? { absInfo[code] }
}
