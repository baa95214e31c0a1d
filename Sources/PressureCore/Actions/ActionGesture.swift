/// The gestures an `[action]` section can bind: the two force gestures and the hold. The rest
/// (`dismiss`, `quickActions`) come only after a peek, which an action on peek has taken already.
public enum ActionGesture: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case peek
    case pop
    case longPress

    /// The gesture kind the pipeline reports.
    public var kind: GestureKind {
        switch self {
        case .peek: return .peek
        case .pop: return .pop
        case .longPress: return .longPress
        }
    }

    /// The action gesture a reported gesture is, or nil (`dismiss`, `quickActions`).
    public init?(_ kind: GestureKind) {
        switch kind {
        case .peek: self = .peek
        case .pop: self = .pop
        case .longPress: self = .longPress
        case .dismiss, .quickActions: return nil
        }
    }

    /// Force gestures go with `ForceTouch = off` (and with force unavailable); the hold stays, as iOS
    /// keeps touch-and-hold the alternative to a press.
    public var needsForce: Bool { self != .longPress }

    public var description: String { rawValue }
}
