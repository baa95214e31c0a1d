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

    /// Works out a device's thresholds. Where the calibration tops out below the chosen pop force, the
    /// top itself pops (and peek keeps its proportion to pop), so every device with pressure can pop.
    public init(device: TouchDevice, calibration: ForceCalibration?, settings: GestureSettings) {
        let slopMM = settings.longPressSlopMillimetres
        slopX = max(1, device.units(
            millimetres: slopMM, on: device.xAxis, fallbackFraction: TouchDevice.slopFractionWithoutResolution))
        slopY = max(1, device.units(
            millimetres: slopMM, on: device.yAxis, fallbackFraction: TouchDevice.slopFractionWithoutResolution))
        quickActionsTravel = Int32(clamping: Int64(max(1, device.units(
            millimetres: settings.quickActionsDistanceMillimetres, on: device.yAxis,
            fallbackFraction: TouchDevice.quickActionsFractionWithoutResolution)).rounded()))
        longPressDuration = settings.longPressDuration
        var pop = settings.sensitivity.popForce
        var peek = settings.sensitivity.peekForce
        if settings.forceTouchEnabled, device.hasPressure, let cal = calibration {
            let top = cal.maximumPossibleForce
            if pop > top {
                peek = peek * top / pop
                pop = top
            }
            peekRaw = max(cal.raw(forForce: peek), cal.floor + 1)
            popRaw = max(cal.raw(forForce: pop), peekRaw)
        } else {
            peekRaw = Int32.max
            popRaw = Int32.max
        }
        peekForce = peek
        popForce = pop
    }
}
