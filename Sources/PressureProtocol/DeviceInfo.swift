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
    /// `too-few-levels`, `flat`, `no-headroom`), where it is; nil where it is available.
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
