/// What filter mode can do with a device (`docs/filter.md`): it cancels a touch by turning its slot into
/// `MT_TOOL_PALM` on the panel's clone, so only a device whose clone has slots can have its touches
/// cancelled.
extension TouchDevice {
    /// How filter mode's clone carries the contacts, or nil where it cannot cancel them.
    public enum CloneSlots: Hashable, Sendable {
        /// A protocol B panel: the clone has the panel's own slots.
        case panels
        /// A single-touch touchscreen: the clone gets one slot beside the panel's axes (``SingleTouchSlot``).
        case one
    }

    /// The clone's slots: nil for a protocol A panel (anonymous contacts) and a single-touch touchpad
    /// (a one-slot clone of it would be a multi-touch pad to the compositor, a different device).
    public var cloneSlots: CloneSlots? {
        switch contactProtocol {
        case .slotted: return .panels
        case .singleTouch: return kind == .touchscreen ? .one : nil
        case .anonymous: return nil
        }
    }

    /// Why filter mode cannot cancel this device's touches, in a few words; nil when it can.
    public var whyNotCancellable: String? {
        guard cloneSlots == nil else { return nil }
        switch contactProtocol {
        case .anonymous: return "protocol A: anonymous contacts, no slots"
        case .singleTouch: return "a single-touch touchpad"
        case .slotted: return nil
        }
    }
}
