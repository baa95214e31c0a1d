/// What a force-feedback device says it can play: its `EV_FF` bits (`EVIOCGBIT(EV_FF)`) and how many
/// effects it holds at once (`EVIOCGEFFECTS`).
public struct HapticSupport: Hashable, Sendable, CustomStringConvertible {
    /// The `FF_*` codes set, in ascending order.
    public var bits: [UInt16]
    /// Effects the device can hold uploaded at once.
    public var effectSlots: Int

    public init(bits: [UInt16], effectSlots: Int) {
        self.bits = bits.sorted()
        self.effectSlots = effectSlots
    }

    /// Whether the device reports every bit `kind` needs.
    public func supports(_ kind: HapticEffectKind) -> Bool { kind.requiredBits.allSatisfy(bits.contains) }

    /// The kinds it can play, in fallback order.
    public var kinds: [HapticEffectKind] { HapticEffectKind.allCases.filter(supports) }

    /// `haptic, rumble; 16 effects`, or `no effect the daemon plays; 16 effects`.
    public var description: String {
        let names = kinds.map(\.rawValue)
        return (names.isEmpty ? "no effect the daemon plays" : names.joined(separator: ", ")) + "; \(effectSlots) effect\(effectSlots == 1 ? "" : "s")"
    }
}
