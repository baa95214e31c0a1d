/// Single-touch panels (`ABS_X/Y`, optional `ABS_PRESSURE`, optional `BTN_TOUCH`): one contact, in slot 0.
///
/// With `BTN_TOUCH` the button says when the panel is touched; hovering (`BTN_TOOL_*` down, `BTN_TOUCH`
/// up, and `ABS_DISTANCE`, which the kernel's event codes document is sent only while `BTN_TOUCH` is 0)
/// is therefore never a touch. Without it, pressure says, through ``TouchHysteresis``: a touch begins at
/// the down threshold and ends below the up threshold, and after a drop the contact is ignored until
/// pressure falls below the up threshold. These panels have no tool type or contact size, so no palms.
extension ContactTracker {
    mutating func handleSingle(code: UInt16, value: Int32) {
        switch code {
        case xCode:
            slots[0].x = clamp(value, device.xAxis)
            slots[0].changed = true
        case yCode:
            slots[0].y = clamp(value, device.yAxis)
            slots[0].changed = true
        case pressureCode where device.pressureAxis != nil:
            slots[0].pressure = clamp(value, pressureAxis)
            slots[0].changed = true
        default:
            break
        }
    }

    /// Whether the panel is touched now, given what slot `s` holds.
    @inline(__always)
    func singleTouchReading(_ s: SlotState) -> Bool {
        device.hasTouchButton ? touchButton : hysteresis.isTouching(s.pressure, held: s.contact.isOccupied)
    }

    mutating func settleSingle() {
        settle(0, lifted: false, reading: singleTouchReading(slots[0]) ? .touching : .absent)
    }
}
