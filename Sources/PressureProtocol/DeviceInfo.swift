/// What apps are told about a device (DEVICE in `docs/protocol.md`): in `hello`, `devices` replies and
/// `device` events. Plain data: the daemon fills it from its pipeline, a client decodes it.
public struct DeviceInfo: Hashable, Sendable {
    /// Used in events and in `subscribe`.
    public var id: Int
    /// The kernel's name.
    public var name: String
    /// `/dev/input/eventN`, or `replay:FILE` for a replayed capture.
    public var node: String
    public var kind: DeviceKind
    /// `unavailable` without a pressure axis, with force touch turned off, while the device is still
    /// learning its average touch, or on a panel with no room for peek and pop: offer long press instead.
    public var forceCapability: ForceCapability
    /// Why force is unavailable (``ForceUnavailableReason/code``: `no-pressure`, `off`, `learning`,
    /// `too-few-levels`, `flat`, `pressure-is-size`, `no-headroom`), where it is; nil where it is available.
    public var forceUnavailable: String?
    /// `UITouch.maximumPossibleForce` for this device now; 0 where force is unavailable.
    public var maximumPossibleForce: Double
    /// Millimetres, where the axes say their resolution.
    public var widthMillimetres: Double?
    public var heightMillimetres: Double?
    /// The position axes, in device units.
    public var xAxis: AxisRange
    public var yAxis: AxisRange
    /// Where its touches land on the screen (`screenX`/`screenY` of events); nil from a daemon older
    /// than screens, which did not send it.
    public var screen: ScreenGeometry?
    /// A replayed log without a device description: what its reader assumed (ranges, protocol, kind).
    public var assumed: [String]

    public init(
        id: Int, name: String, node: String, kind: DeviceKind, forceCapability: ForceCapability,
        forceUnavailable: String? = nil, maximumPossibleForce: Double, widthMillimetres: Double? = nil,
        heightMillimetres: Double? = nil, xAxis: AxisRange, yAxis: AxisRange, screen: ScreenGeometry? = nil,
        assumed: [String] = []
    ) {
        self.id = id
        self.name = name
        self.node = node
        self.kind = kind
        self.forceCapability = forceCapability
        self.forceUnavailable = forceUnavailable
        self.maximumPossibleForce = maximumPossibleForce
        self.widthMillimetres = widthMillimetres
        self.heightMillimetres = heightMillimetres
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.screen = screen
        self.assumed = assumed
    }
}

extension DeviceInfo {
    /// DEVICE: `{"id","name","node","kind","forceCapability","forceUnavailable","maximumPossibleForce","width",
    /// "height","x","y","screen","assumed"}`, `forceUnavailable` only where force is unavailable, `width` and
    /// `height` only where known, `screen` where known (the daemon always knows it), `assumed` only for a
    /// replayed log whose reader had to assume something.
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"id":"#.utf8)
        JSONWriter.appendInteger(id, to: &out)
        JSONWriter.appendKey("name", to: &out)
        JSONWriter.appendString(name, to: &out)
        JSONWriter.appendKey("node", to: &out)
        JSONWriter.appendString(node, to: &out)
        JSONWriter.appendKey("kind", to: &out)
        JSONWriter.appendString(kind.rawValue, to: &out)
        JSONWriter.appendKey("forceCapability", to: &out)
        JSONWriter.appendString(forceCapability.rawValue, to: &out)
        JSONWriter.appendMember("forceUnavailable", forceUnavailable, to: &out)
        JSONWriter.appendKey("maximumPossibleForce", to: &out)
        WireFormat.appendDecimal(maximumPossibleForce, to: &out)
        if let widthMillimetres, let heightMillimetres {
            JSONWriter.appendKey("width", to: &out)
            WireFormat.appendDecimal(widthMillimetres, to: &out)
            JSONWriter.appendKey("height", to: &out)
            WireFormat.appendDecimal(heightMillimetres, to: &out)
        }
        JSONWriter.appendKey("x", to: &out)
        xAxis.append(to: &out)
        JSONWriter.appendKey("y", to: &out)
        yAxis.append(to: &out)
        if let screen {
            JSONWriter.appendKey("screen", to: &out)
            screen.append(to: &out)
        }
        if !assumed.isEmpty {
            JSONWriter.appendKey("assumed", to: &out)
            JSONWriter.appendStrings(assumed, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Decodes DEVICE as ``append(to:)`` writes it. `width` and `height` count only together, as they are
    /// sent; `screen` may be missing (older daemons); strings in `assumed` are kept, anything else there
    /// is passed over.
    public init(json: JSONValue) throws(MessageDecodingError) {
        try self.init(MessageFields(json, what: "a device"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        let width = try f.optionalDouble("width"), height = try f.optionalDouble("height")
        let bothSizes = width != nil && height != nil
        self.init(
            id: try f.int("id"), name: try f.string("name"), node: try f.string("node"),
            kind: try f.enumeration("kind", DeviceKind.self),
            forceCapability: try f.enumeration("forceCapability", ForceCapability.self),
            forceUnavailable: try f.optionalString("forceUnavailable"),
            maximumPossibleForce: try f.double("maximumPossibleForce"),
            widthMillimetres: bothSizes ? width : nil, heightMillimetres: bothSizes ? height : nil,
            xAxis: try AxisRange(try f.object("x")), yAxis: try AxisRange(try f.object("y")),
            screen: try f.optionalObject("screen").map { v throws(MessageDecodingError) in try ScreenGeometry(v) },
            assumed: (f.raw("assumed")?.arrayValue ?? []).compactMap(\.stringValue))
    }

    /// A list of DEVICEs (`hello`, `devices` replies).
    static func list(_ f: MessageFields, _ key: String) throws(MessageDecodingError) -> [DeviceInfo] {
        var devices: [DeviceInfo] = []
        for d in try f.objects(key) { devices.append(try DeviceInfo(d)) }
        return devices
    }
}
