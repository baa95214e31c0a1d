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
}
