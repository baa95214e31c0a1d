/// One gesture's effect: which kind the integrator prefers (nil: the best the device has, in the order
/// of ``HapticEffectKind``), how strong, for how long.
public struct HapticEffect: Hashable, Sendable {
    public var kind: HapticEffectKind?
    /// 0 (nothing) to 1 (the device's full magnitude).
    public var strength: Double
    public var durationMilliseconds: Int

    public init(kind: HapticEffectKind? = nil, strength: Double, durationMilliseconds: Int) {
        self.kind = kind
        self.strength = strength
        self.durationMilliseconds = durationMilliseconds
    }

    /// The strength as the kernel's 16-bit magnitude (`ff_rumble_effect`, `ff_periodic_effect`).
    public var magnitude: UInt16 { UInt16(max(0, min(1, strength)) * 65535) }

    /// The HID haptic waveform for `FF_HAPTIC` (usage page 0x0E, HUTRR63): a light tap clicks, a firm
    /// one presses.
    public var hidWaveform: UInt16 { strength < 0.6 ? HapticEffect.waveformClick : HapticEffect.waveformPress }
    public static let waveformClick: UInt16 = 0x1003
    public static let waveformPress: UInt16 = 0x1006
}
