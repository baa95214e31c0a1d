/// One place a contact can live in: a protocol B slot, a protocol A table entry, or the single contact of
/// a single-touch panel. It holds what the kernel said last and what was reported downstream.
struct SlotState: Sendable {
    /// Kernel tracking id, or -1 for none.
    var trackingID: Int32 = -1
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = 0
    /// A contact began here and has not ended.
    var live = false
    /// Position or pressure changed in this frame.
    var changed = false
    /// Listed in the tracker's dirty list for this frame.
    var dirty = false
    /// The contact here was cancelled after `SYN_DROPPED`; ignore the slot until its tracking id
    /// changes, because the kernel will not repeat what was lost.
    var suppressed = false
}
