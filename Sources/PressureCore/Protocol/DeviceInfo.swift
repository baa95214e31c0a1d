/// What apps are told about a device (`hello`, `devices`, `device` events): see `docs/protocol.md`.
public struct DeviceInfo: Hashable, Sendable {
    public var id: Int
    public var name: String
    /// `/dev/input/eventN`, or `replay:FILE` for a replayed capture.
    public var node: String
    public var kind: TouchDevice.Kind
    public var forceCapability: TouchDevice.ForceCapability
    /// Why force is unavailable (``ForceUnavailableReason/code``), where it is.
    public var forceUnavailable: String?
    public var maximumPossibleForce: Double
    /// Millimetres, where the axes say their resolution.
    public var widthMillimetres: Double?
    public var heightMillimetres: Double?
    public var xAxis: AbsInfo
    public var yAxis: AbsInfo
    /// Where its touches land on the screen (`screenX`/`screenY` of events).
    public var screen: ScreenGeometry
    /// A replayed log without a device description: what its reader assumed (ranges, protocol, kind).
    public var assumed: [String] = []

    public init(id: Int, node: String, pipeline: TouchPipeline) {
        let device = pipeline.device
        self.id = id
        name = device.description.name
        self.node = node
        kind = device.kind
        forceCapability = pipeline.forceCapability
        forceUnavailable = pipeline.forceCapability == .available ? nil : pipeline.forceUnavailableReason?.code
        maximumPossibleForce = pipeline.maximumPossibleForce
        widthMillimetres = device.sizeMillimetres?.width
        heightMillimetres = device.sizeMillimetres?.height
        xAxis = device.xAxis
        yAxis = device.yAxis
        screen = pipeline.geometry
    }
}

/// The settings apps see (`hello`, `settings` events, `set` replies).
public struct PublicSettings: Hashable, Sendable {
    public var forceTouch: Bool
    public var sensitivity: Sensitivity

    public init(_ s: GestureSettings) {
        forceTouch = s.forceTouchEnabled
        sensitivity = s.sensitivity
    }
}
