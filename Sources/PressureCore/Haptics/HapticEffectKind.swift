/// The kinds of force-feedback effect the daemon uploads (`Documentation/input/ff.rst`), in the order it
/// falls back through them when a device lacks one or its driver refuses it (`EINVAL`).
public enum HapticEffectKind: String, CaseIterable, Hashable, Sendable {
    /// `FF_HAPTIC` (Linux 6.18, HID haptic pressure pads): the pad's own click and press waveforms.
    case haptic
    /// `FF_PERIODIC` with the `FF_CUSTOM` waveform: what DA7280 and CS40L50 drivers accept (the custom
    /// data names one of the waveforms stored in the chip; the daemon asks for waveform 0 of the bank).
    case custom
    /// `FF_RUMBLE`: memoryless vibrators (`ff-memless`: PWM, GPIO and PMIC vibrators, DRV260x).
    case rumble
    /// `FF_PERIODIC` with a sine wave: drivers that play waveforms but no rumble.
    case periodic

    /// The effect types the kernel's `EV_FF` bits name for each kind (`linux/input.h`; `FF_HAPTIC` is
    /// defined here as the kernel does, since older headers lack it).
    public enum Bit {
        public static let haptic: UInt16 = 0x4f
        public static let rumble: UInt16 = 0x50
        public static let periodic: UInt16 = 0x51
        public static let constant: UInt16 = 0x52
        public static let sine: UInt16 = 0x5a
        public static let custom: UInt16 = 0x5d
        public static let gain: UInt16 = 0x60
    }

    /// The `EV_FF` bits a device must report for this kind.
    public var requiredBits: [UInt16] {
        switch self {
        case .haptic: return [Bit.haptic]
        case .custom: return [Bit.periodic, Bit.custom]
        case .rumble: return [Bit.rumble]
        case .periodic: return [Bit.periodic, Bit.sine]
        }
    }

    /// The kinds to try for an effect that prefers `preferred` (nil: the daemon chooses), in order, on a
    /// device that supports `supported`: the preferred kind and those after it in the fallback order
    /// (haptic → custom → rumble → periodic), each only where the device reports its bits. Empty: the
    /// device can play none of them.
    public static func candidates(preferring preferred: HapticEffectKind?, on supported: HapticSupport) -> [HapticEffectKind] {
        let order = allCases
        let start = preferred.flatMap { order.firstIndex(of: $0) } ?? 0
        return order[start...].filter { supported.supports($0) }
    }
}
