/// The gestures the daemon plays a haptic effect for. `dismiss` plays nothing: iOS gives no tap when a
/// preview closes, and a tap on lifting would feel like a second press.
public enum HapticGesture: String, CaseIterable, Hashable, Sendable {
    case peek
    case pop
    case quickActions
    case longPress

    /// The gesture's effect, or nil for one that plays none (`dismiss`): each case is the ``GestureKind``
    /// of the same protocol name, so no table maps one to the other by hand.
    public init?(_ kind: GestureKind) {
        self.init(rawValue: kind.rawValue)
    }

    /// Peek, pop and quick actions need force; long press does not (it stays when force is off).
    public var needsForce: Bool { self != .longPress }

    /// Its index in ``allCases``: the slot of its uploaded effect on a device.
    public var index: Int {
        Self.allCases.firstIndex(of: self) ?? 0
    }

    /// The name configuration keys start with (`PeekEffect`, `PopMs`, `QuickActionsEffect` …): the
    /// protocol name, capitalised.
    public var keyPrefix: String {
        rawValue.prefix(1).uppercased() + rawValue.dropFirst()
    }
}
