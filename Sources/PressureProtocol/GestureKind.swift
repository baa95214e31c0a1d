/// A force or hold gesture, as apps receive it.
public enum GestureKind: String, Sendable, CaseIterable {
    /// A light press: show a preview.
    case peek
    /// A harder press during a peek: open the item.
    case pop
    /// The finger lifted (or the contact was cancelled) while peeking: close the preview.
    case dismiss
    /// While peeking, the finger moved up: show the item's quick actions.
    case quickActions
    /// Touch-and-hold without moving or peeking: the alternative that works without pressure.
    case longPress

    /// Whether a region's owner that gets this gesture has answered the finger, so the touch is the owner's
    /// until it lifts (filter mode cancels it for the views beneath; the web and Qt modules do not let it
    /// also click): the `takes a touch` column of `docs/protocol.md`'s table of names. A pop follows a
    /// peek that took the touch already; a dismiss only closes the preview.
    public var takesTouch: Bool {
        switch self {
        case .peek, .pop, .quickActions, .longPress: return true
        case .dismiss: return false
        }
    }
}
