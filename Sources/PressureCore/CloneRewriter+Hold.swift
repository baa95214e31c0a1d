/// Hold mode (``CloneRewriter/Mode/hold``, `docs/filter.md`): a touch the hub holds is kept from the clone
/// until it is decided (``HeldTouch``), and what the clone says of the contacts beside their slots counts
/// only those it shows:
///
/// - its touch and finger-count buttons (`BTN_TOUCH`, `BTN_TOOL_FINGER` … `BTN_TOOL_QUINTTAP`, those it has)
///   are the clone's own, set at each frame's end from the contacts it shows, as the kernel sets the panel's
///   from the contacts down (the panel's are dropped): a held touch alone leaves `BTN_TOUCH` 0;
/// - the panel's axes below the multi-touch ones (its pointer emulation; a single-touch panel's own
///   position and pressure) are kept from it while it shows no contact, and given it, their latest values,
///   with the first contact it shows. With a contact shown they pass as they come, even where the panel's
///   pointer emulation follows a held one (libinput reads a multi-touch panel's slots, not those axes).
///
/// A frame's start waits for its end (the hub's holds are known only once it has read the whole frame).
extension CloneRewriter {
    /// The buttons the kernel's multi-touch core sets from the number of contacts down: `BTN_TOUCH`,
    /// `BTN_TOOL_FINGER`, `BTN_TOOL_DOUBLETAP`, `BTN_TOOL_TRIPLETAP`, `BTN_TOOL_QUADTAP`, `BTN_TOOL_QUINTTAP`.
    public static let countButtons: [UInt16] = [KeyCode.btnTouch, KeyCode.btnToolFinger, 0x14d, 0x14e, 0x14f, 0x148]

    /// The value of count button `code` with `n` contacts down (`input_mt_report_finger_count`).
    static func buttonValue(_ code: UInt16, contacts n: Int) -> Int32 {
        switch code {
        case KeyCode.btnTouch: return n > 0 ? 1 : 0
        case KeyCode.btnToolFinger: return n == 1 ? 1 : 0
        case 0x14d: return n == 2 ? 1 : 0
        case 0x14e: return n == 3 ? 1 : 0
        case 0x14f: return n == 4 ? 1 : 0
        case 0x148: return n == 5 ? 1 : 0
        default: return 0
        }
    }

    /// ``rewrite(_:cancelling:held:holds:into:)`` in hold mode: the frames whose end has come, through the
    /// held touches; the start of the next waits.
    mutating func rewriteHolding(
        _ events: ArraySlice<InputEvent>, cancelling: [Int], held: Bool, holds: CloneHolds, into out: inout [InputEvent]
    ) {
        pending.append(contentsOf: events)
        guard let end = pending.lastIndex(where: { $0.type == EventType.syn && $0.code == SynCode.report }) else { return }
        let frames = pending[...end]
        if singleTouch != nil {
            translated.removeAll(keepingCapacity: true)
            singleTouch?.translate(frames, held: held, into: &translated)
            passHolding(translated[...], cancelling, holds, &out)
        } else {
            passHolding(frames, cancelling, holds, &out)
        }
        pending.removeSubrange(...end)
    }

    private mutating func passHolding(
        _ events: ArraySlice<InputEvent>, _ cancelling: [Int], _ holds: CloneHolds, _ out: inout [InputEvent]
    ) {
        var panelTool: (slot: Int32, value: Int32)? = nil
        for e in events {
            if e.type == EventType.abs {
                if e.code < AbsCode.mtSlot {
                    if !keepsOther(e) { continue }
                } else {
                    let s = Int(currentSlot)
                    if e.code != AbsCode.mtSlot && held.indices.contains(s) {
                        let input: HeldTouch.Input = e.code != AbsCode.mtTrackingID ? .value(e)
                            : e.value >= 0 ? .began(trackingID: e.value, hold: holds.holds(s)) : .lifted
                        if held[s].apply(input) == .keep { continue }
                    }
                    if !passesSlotEvent(e, &panelTool, &out) { continue }
                }
            } else if e.type == EventType.key {
                if !keepsOther(e) { continue }
            } else if e.type == EventType.syn && e.code == SynCode.report {
                markPalms(cancelling.filter { !held.indices.contains($0) || !held[$0].isKept }, &out)
                endHoldFrame(&out)
                put(e.type, e.code, e.value, &out)
                settle(cancelling: cancelling, holds: holds, into: &out)
                continue
            }
            put(e.type, e.code, e.value, &out)
        }
    }

    /// The hub's verdicts on the held touches, outside a frame of the panel as at each frame's end (a held
    /// touch let go by time, on the daemon's timer): the clone gets each one let go or lifted (its down,
    /// its moves, its lift, each a frame); one taken is withheld until it lifts.
    public mutating func settle(cancelling: [Int], holds: CloneHolds, into out: inout [InputEvent]) {
        for s in held.indices where held[s].isKept {
            guard case .release(let h) = held[s].apply(.frameEnd(holds.verdict(s, cancelling: cancelling))) else { continue }
            writeRelease(s, h, &out)
        }
    }

    /// The held touch `h` of slot `s` on the clone: its down at its first point, its moves, its lift if it
    /// lifted, each a frame (libinput takes no touch and lift of one slot in a frame); the panel's current
    /// slot is put back before the last frame ends.
    private mutating func writeRelease(_ s: Int, _ h: HeldTouch.Held, _ out: inout [InputEvent]) {
        let panelSlot = currentSlot
        var frames: [[InputEvent]] = [h.down]
        if !h.moves.isEmpty { frames.append(h.moves) }
        if h.lifted { frames.append([InputEvent(time: Self.unstamped, type: EventType.abs, code: AbsCode.mtTrackingID, value: -1)]) }
        var noTool: (slot: Int32, value: Int32)? = nil
        for (k, frame) in frames.enumerated() {
            currentSlot = Int32(s)
            put(EventType.abs, AbsCode.mtSlot, currentSlot, &out)
            for e in frame where passesSlotEvent(e, &noTool, &out) { put(e.type, e.code, e.value, &out) }
            endHoldFrame(&out)
            currentSlot = panelSlot
            if k == frames.count - 1 { put(EventType.abs, AbsCode.mtSlot, currentSlot, &out) }
            put(EventType.syn, SynCode.report, 0, &out)
        }
    }

    /// Before a frame's `SYN_REPORT` on the clone: its count buttons, and the panel's axes below the
    /// multi-touch ones once it shows a contact again.
    mutating func endHoldFrame(_ out: inout [InputEvent]) {
        writeButtons(&out)
        if pointerStale && shownCount > 0 {
            for e in pointer { put(e.type, e.code, e.value, &out) }
            pointerStale = false
        }
    }

    /// The clone's count buttons that change with the contacts it shows now.
    mutating func writeButtons(_ out: inout [InputEvent]) {
        let n = slots.reduce(0) { $0 + ($1.shownTrackingID == nil ? 0 : 1) }
        guard n != shownCount else { return }
        for code in buttons where Self.buttonValue(code, contacts: n) != Self.buttonValue(code, contacts: shownCount) {
            put(EventType.key, code, Self.buttonValue(code, contacts: n), &out)
        }
        shownCount = n
    }

    /// Whether the panel's event beside its slots passes: its count buttons never (they are the clone's
    /// own), its axes below the multi-touch ones while the clone shows a contact (remembered either way).
    mutating func keepsOther(_ e: InputEvent) -> Bool {
        if e.type == EventType.key { return !Self.countButtons.contains(e.code) }
        guard e.type == EventType.abs && e.code < AbsCode.mtSlot else { return true }
        if let k = pointer.firstIndex(where: { $0.code == e.code }) { pointer[k] = e } else { pointer.append(e) }
        guard slots.contains(where: { $0.shownTrackingID != nil }) else {
            pointerStale = true
            return false
        }
        return true
    }

    /// After `SYN_DROPPED`: the panel's slots as the clone is to have them, the held ones empty. A held touch
    /// the panel still has goes on being held (its values remembered as moves); one it ended or replaced is
    /// dropped (never shown, nothing to lift); a contact the clone does not show that the hub holds begins
    /// held, its restated values its first point.
    mutating func restateHeld(_ panel: PanelSnapshot, _ holds: CloneHolds) -> [PanelSnapshot.Slot] {
        var restated = panel.slots
        let empty = PanelSnapshot.Slot(trackingID: -1, values: [])
        for s in restated.indices where held.indices.contains(s) {
            let id = panel.slots[s].trackingID
            let values = panel.slots[s].values.filter { $0.code != AbsCode.mtTrackingID }
            switch held[s] {
            case .holding(let h) where h.trackingID == id:
                for e in values { _ = held[s].apply(.value(e)) }
                restated[s] = empty
                continue
            case .withheld(let t) where t == id:
                restated[s] = empty
                continue
            case .holding, .withheld:
                _ = held[s].apply(.end)
            case .free:
                break
            }
            guard id >= 0, holds.holds(s), slots.indices.contains(s), slots[s].shownTrackingID != id else { continue }
            _ = held[s].apply(.began(trackingID: id, hold: true))
            for e in values { _ = held[s].apply(.value(e)) }
            restated[s] = empty
        }
        return restated
    }
}
