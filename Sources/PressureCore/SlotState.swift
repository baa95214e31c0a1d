/// One place a contact can live in: a protocol B slot, a protocol A table entry, or the single contact of
/// a single-touch panel. It holds what the kernel said last and what the tracker made of it.
///
/// The kernel sends a slot's value only when it changes, also across contacts: a new contact in a slot
/// whose last one was a palm, hovering or large sends no `ABS_MT_TOOL_TYPE`, `ABS_MT_DISTANCE` or
/// `ABS_MT_TOUCH_MAJOR` when its value is the same. So these are kept when a contact ends, as libevdev
/// keeps them (libinput reads the tool type of a new contact from libevdev's slot for that reason).
struct SlotState: Sendable {
    /// Kernel tracking id, or -1 for none.
    var trackingID: Int32 = -1
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = 0
    /// `ABS_MT_TOOL_TYPE` (`MT_TOOL_FINGER` unless the device says otherwise).
    var toolType: Int32 = MTTool.finger
    /// `ABS_MT_DISTANCE`: 0 is touching, above 0 hovering.
    var distance: Int32 = 0
    /// `ABS_MT_TOUCH_MAJOR`, in its own units.
    var touchMajor: Int32 = 0
    /// What the tracker made of the contact here (``SlotContact``).
    var contact = SlotContact.idle
    /// The contact here ended during this frame (its tracking id went to -1, or changed after a drop).
    var lifted = false
    /// Where and how hard the contact that ended was at that moment: the frame may go on to place a new
    /// contact in the slot.
    var liftX: Int32 = 0
    var liftY: Int32 = 0
    var liftPressure: Int32 = 0
    /// How the contact's pressure stood to its touch major so far (``SizeEcho``), and for the contact that
    /// ended in this frame, at its end.
    var sizeEcho = SizeEcho.unseen
    var liftSizeEcho = SizeEcho.unseen
    /// This frame sent `ABS_MT_PRESSURE` / `ABS_MT_TOUCH_MAJOR` for the contact (the size echo's evidence).
    var pressureSent = false
    var majorSent = false
    /// Position or pressure changed in this frame.
    var changed = false
    /// Listed in the tracker's dirty list for this frame.
    var dirty = false
}
