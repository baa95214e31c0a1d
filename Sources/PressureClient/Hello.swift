import PressureCore

/// The daemon's greeting, the first line of every connection: what it is, its devices, its settings.
public struct Hello: Hashable, Sendable {
    /// The protocol version (this library speaks ``ServerMessage/protocolVersion``).
    public var protocolVersion: Int
    /// The daemon's version, e.g. `0.1.0`.
    public var version: String
    public var devices: [PressuredDevice]
    public var settings: PublicSettings

    public init(protocolVersion: Int, version: String, devices: [PressuredDevice], settings: PublicSettings) {
        self.protocolVersion = protocolVersion
        self.version = version
        self.devices = devices
        self.settings = settings
    }

    init(_ fields: MessageFields) throws(DecodeFailure) {
        protocolVersion = try fields.int("protocol")
        version = try fields.string("version")
        devices = try PressuredDevice.list(try fields.array("devices"))
        settings = try PublicSettings(try fields.object("settings"))
    }
}

/// A device as the daemon describes it (DEVICE in `docs/protocol.md`): in `hello`, `devices` replies and
/// `device` events.
public struct PressuredDevice: Hashable, Sendable {
    /// Used in events and in `subscribe`.
    public var id: Int
    /// The kernel's name.
    public var name: String
    /// `/dev/input/eventN`, or `replay:FILE` for a replayed capture.
    public var node: String
    public var kind: TouchDevice.Kind
    /// `unavailable` without a pressure axis, with force touch turned off, while the device is still
    /// learning its average touch, or on a panel with no room for peek and pop: offer long press instead.
    public var forceCapability: TouchDevice.ForceCapability
    /// Why force is unavailable, where it is: `no-pressure`, `off`, `learning`, `too-few-levels`, `flat`,
    /// `no-headroom` (`docs/protocol.md`); nil where it is available.
    public var forceUnavailable: String? = nil
    /// `UITouch.maximumPossibleForce` for this device now; 0 where force is unavailable.
    public var maximumPossibleForce: Double
    /// The surface in millimetres, where the axes have a resolution.
    public var widthMillimetres: Double?
    public var heightMillimetres: Double?
    /// The position axes, in device units.
    public var x: AxisRange
    public var y: AxisRange
    /// A replayed log without a device description: what was assumed of it (`assumed`).
    public var assumed: [String] = []

    public init(
        id: Int, name: String, node: String, kind: TouchDevice.Kind, forceCapability: TouchDevice.ForceCapability,
        maximumPossibleForce: Double, widthMillimetres: Double? = nil, heightMillimetres: Double? = nil,
        x: AxisRange, y: AxisRange
    ) {
        self.id = id
        self.name = name
        self.node = node
        self.kind = kind
        self.forceCapability = forceCapability
        self.maximumPossibleForce = maximumPossibleForce
        self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres
        self.x = x
        self.y = y
    }

    init(_ f: MessageFields) throws(DecodeFailure) {
        id = try f.int("id")
        name = try f.string("name")
        node = try f.string("node")
        kind = try f.enumeration("kind", TouchDevice.Kind.self)
        forceCapability = try f.enumeration("forceCapability", TouchDevice.ForceCapability.self)
        forceUnavailable = try f.optionalString("forceUnavailable")
        maximumPossibleForce = try f.double("maximumPossibleForce")
        widthMillimetres = try f.optionalDouble("width")
        heightMillimetres = try f.optionalDouble("height")
        x = try AxisRange(try f.object("x"))
        y = try AxisRange(try f.object("y"))
        assumed = (f.value["assumed"]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    static func list(_ values: [JSONValue]) throws(DecodeFailure) -> [PressuredDevice] {
        var devices: [PressuredDevice] = []
        for v in values { devices.append(try PressuredDevice(try MessageFields(v, what: "a device"))) }
        return devices
    }
}

/// An axis range in device units, `{"min":…,"max":…}`. Kept as two integers rather than a
/// `ClosedRange`, which would trap on a daemon that ever sent `min > max`.
public struct AxisRange: Hashable, Sendable {
    public var minimum: Int
    public var maximum: Int

    public init(minimum: Int, maximum: Int) {
        self.minimum = minimum
        self.maximum = maximum
    }

    init(_ f: MessageFields) throws(DecodeFailure) {
        minimum = try f.int("min")
        maximum = try f.int("max")
    }
}

extension PublicSettings {
    init(_ f: MessageFields) throws(DecodeFailure) {
        self.init(forceTouch: try f.bool("forceTouch"), sensitivity: try f.enumeration("sensitivity", Sensitivity.self))
    }
}
