/// The gesture settings of one device in its own units, worked out once so each frame compares integers.
public struct GestureThresholds: Hashable, Sendable {
    /// Raw pressure at which a contact peeks; `Int32.max` where force gestures are off or impossible.
    public var peekRaw: Int32
    /// Raw pressure at which a contact pops; `Int32.max` where force gestures are off or impossible.
    public var popRaw: Int32
    /// Long-press slop in device units, per axis (an ellipse where x and y resolutions differ).
    public var slopX: Double
    public var slopY: Double
    /// Upward travel, in y units, that reveals quick actions while peeking.
    public var quickActionsTravel: Int32
    public var longPressDuration: Timestamp.Duration
    /// The force at which `peek` and `pop` fire, for progress reporting.
    public var peekForce: Double
    public var popForce: Double

    /// Thresholds that never fire a force gesture (no pressure axis, or force touch turned off).
    public var forceGesturesEnabled: Bool { peekRaw != Int32.max }

    public init(
        peekRaw: Int32, popRaw: Int32, slopX: Double, slopY: Double, quickActionsTravel: Int32,
        longPressDuration: Timestamp.Duration, peekForce: Double, popForce: Double
    ) {
        self.peekRaw = peekRaw
        self.popRaw = popRaw
        self.slopX = slopX
        self.slopY = slopY
        self.quickActionsTravel = quickActionsTravel
        self.longPressDuration = longPressDuration
        self.peekForce = peekForce
        self.popForce = popForce
    }

    /// Works out a device's thresholds from its force outcome (``ForceModel``): peek and pop at the
    /// forces the ``ThresholdRule`` chose, in raw units, or never where force is unavailable.
    public init(device: TouchDevice, force: ForceModel.Outcome, settings: GestureSettings) {
        let slopMM = settings.longPressSlopMillimetres
        slopX = max(1, device.units(
            millimetres: slopMM, on: device.xAxis, fallbackFraction: TouchDevice.slopFractionWithoutResolution))
        slopY = max(1, device.units(
            millimetres: slopMM, on: device.yAxis, fallbackFraction: TouchDevice.slopFractionWithoutResolution))
        quickActionsTravel = Int32(clamping: Int64(max(1, device.units(
            millimetres: settings.quickActionsDistanceMillimetres, on: device.yAxis,
            fallbackFraction: TouchDevice.quickActionsFractionWithoutResolution)).rounded()))
        longPressDuration = settings.longPressDuration
        switch force {
        case .available(let cal, let forces):
            peekRaw = max(cal.raw(forForce: forces.peek), cal.floor + 1)
            popRaw = max(cal.raw(forForce: forces.pop), peekRaw)
            peekForce = forces.peek
            popForce = forces.pop
        case .unavailable:
            peekRaw = Int32.max
            popRaw = Int32.max
            peekForce = 0
            popForce = 0
        }
    }
}
