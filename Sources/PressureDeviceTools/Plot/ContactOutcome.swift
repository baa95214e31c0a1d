import PressureCore

/// What one contact came to, for a picture of many contacts: coloured by this rather than one colour a
/// contact, which nobody can match beyond a dozen. A contact that popped counts as popped
/// (it peeked first), one that peeked as peeked; a long press only where it did neither.
public enum ContactOutcome: String, CaseIterable, Hashable, Sendable {
    case ordinary, peeked, popped, longPress, palm

    /// Beyond this many contacts the picture colours by outcome.
    public static let contactsWithColoursOfTheirOwn = 12

    /// The words the legend gives it.
    public var label: String {
        switch self {
        case .ordinary: return "ordinary"
        case .peeked: return "peeked"
        case .popped: return "popped"
        case .longPress: return "long press"
        case .palm: return "palm"
        }
    }

    /// Ordinary contacts recede (grey-blue); the gestures take the colours of their thresholds.
    public var colour: String {
        switch self {
        case .ordinary: return "rgb(120,144,168)"
        case .peeked: return "rgb(224,123,0)"
        case .popped: return "rgb(192,23,43)"
        case .longPress: return "rgb(44,140,60)"
        case .palm: return "rgb(140,86,160)"
        }
    }

    /// The outcome of a contact from the gestures it fired; `cancelled` where it was cancelled before
    /// the capture ended (a palm, in a replay).
    public init(gestures: Set<GestureKind>, cancelled: Bool) {
        if cancelled {
            self = .palm
        } else if gestures.contains(.pop) {
            self = .popped
        } else if gestures.contains(.peek) {
            self = .peeked
        } else if gestures.contains(.longPress) {
            self = .longPress
        } else {
            self = .ordinary
        }
    }
}
