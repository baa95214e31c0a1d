/// A filtered panel's whole state after `SYN_DROPPED` and libevdev's resync, as events, for
/// ``CloneRewriter/restate(_:cancelling:held:)`` to restate on the clone (the Linux layer reads it from
/// libevdev). Every value is here, changed or not: the clone's kernel side drops what did not change.
public struct PanelSnapshot: Hashable, Sendable {
    /// One slot of the panel.
    public struct Slot: Hashable, Sendable {
        /// The slot's `ABS_MT_TRACKING_ID`: -1 for no contact.
        public var trackingID: Int32
        /// The slot's multi-touch axes the panel has (`ABS_MT_TOUCH_MAJOR` through `ABS_MT_TOOL_Y`, the
        /// tracking id among them, its tool type not: a palm's is the clone's), in code order.
        public var values: [InputEvent]

        public init(trackingID: Int32, values: [InputEvent]) {
            self.trackingID = trackingID
            self.values = values
        }
    }

    /// The panel's slots, from 0 (none for a single-touch panel).
    public var slots: [Slot]
    /// The panel's axes below the multi-touch ones, then its touch and tool buttons (`BTN_DIGI` through
    /// `BTN_TOOL_QUADTAP`), those it has, in code order.
    public var others: [InputEvent]
    /// The panel's current slot.
    public var currentSlot: Int32

    public init(slots: [Slot], others: [InputEvent], currentSlot: Int32) {
        self.slots = slots
        self.others = others
        self.currentSlot = currentSlot
    }
}
