/// The gestures the daemon plays a haptic effect for. `dismiss` plays nothing: iOS gives no tap when a
/// preview closes, and a tap on lifting would feel like a second press.
public enum HapticGesture: String, CaseIterable, Hashable, Sendable {
    case peek
    case pop
    case quickActions
    case longPress

    /// The gesture's effect, or nil for one that plays none (`dismiss`).
    public init?(_ kind: GestureKind) {
        switch kind {
        case .peek: self = .peek
        case .pop: self = .pop
        case .quickActions: self = .quickActions
        case .longPress: self = .longPress
        case .dismiss: return nil
        }
    }

    /// Peek, pop and quick actions need force; long press does not (it stays when force is off).
    public var needsForce: Bool { self != .longPress }

    /// Its index in ``allCases``: the slot of its uploaded effect on a device.
    public var index: Int {
        switch self {
        case .peek: return 0
        case .pop: return 1
        case .quickActions: return 2
        case .longPress: return 3
        }
    }

    /// The name configuration keys start with (`PeekEffect`, `PopMs` …).
    public var keyPrefix: String {
        switch self {
        case .peek: return "Peek"
        case .pop: return "Pop"
        case .quickActions: return "QuickActions"
        case .longPress: return "LongPress"
        }
    }
}
