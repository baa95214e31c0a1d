/// What filter mode writes to a panel's clone (`docs/filter.md`), frame by frame, as values: the Linux
/// layer's `TouchClone` only writes it. Every event of the panel passes as it came, but for what cancels a
/// touch the hub names:
///
/// - the slots the hub cancels become palms before the frame's `SYN_REPORT`, on the very frame whose
///   gesture took their touch (``CloneSlot``, its table in the doc comment), and stay palms until they lift;
/// - a palm slot's next contact is made a finger again just before its tracking id, and the panel's own
///   tool type is kept from the clone while the slot is a palm;
/// - a single-touch panel's frames get the clone's one slot first (``SingleTouchSlot``);
/// - after `SYN_DROPPED`, the panel's whole state is restated (``restate(_:cancelling:held:)``);
/// - a stopping daemon, and one taking a kept clone back, cancel every touch down on the clone
///   (``endContacts(currentSlot:into:)``).
///
/// In hold mode (``Mode/hold``, `CloneRewriter+Hold.swift`) a touch the hub holds is kept from the clone
/// instead, until the hub lets it go or a gesture takes it (``HeldTouch``, its table in the doc comment).
///
/// Each call's events are one `write(2)` to the clone (``restate(_:cancelling:held:)``'s, one each). They
/// carry no time: the kernel stamps the clone's events as they arrive.
public struct CloneRewriter: Sendable {
    /// What becomes of a touch the hub cancels.
    public enum Mode: Hashable, Sendable {
        /// Its slot's tool type becomes `MT_TOOL_PALM` on the frame that cancels it (``CloneSlot``).
        case cancel
        /// A touch that begins where a gesture could take it is kept from the clone until the hub decides
        /// (``HeldTouch``): taken, the app never sees it; let go or lifted, the clone gets it whole. A touch
        /// taken after it was let go is cancelled as in ``cancel``.
        case hold
    }

    public let mode: Mode
    /// The clone's slots, as the compositor sees them.
    public private(set) var slots: [CloneSlot]
    /// The panel's current slot as its frames leave it (`ABS_MT_SLOT` comes only when it changes).
    public internal(set) var currentSlot: Int32 = 0
    /// A single-touch panel's one slot; nil for a panel with slots of its own.
    public internal(set) var singleTouch: SingleTouchSlot?
    /// A single-touch panel's frame with its slot's events, kept between frames.
    var translated: [InputEvent] = []
    /// Hold mode: each slot's held touch.
    public internal(set) var held: [HeldTouch]
    /// Hold mode: the touch and finger-count buttons the clone has (``CloneRewriter/countButtons``), which
    /// count only the contacts the clone shows.
    let buttons: [UInt16]
    /// Hold mode: the contacts the clone's buttons last said were down.
    var shownCount = 0
    /// Hold mode: the panel's latest values of its axes below the multi-touch ones (its pointer emulation,
    /// a single-touch panel's own position and pressure), and whether the clone lacks some of them: they
    /// are kept from it while it shows no contact.
    var pointer: [InputEvent] = []
    var pointerStale = false
    /// Hold mode: the start of a frame whose end has not come yet (its holds are known only then).
    var pending: [InputEvent] = []

    /// The rewriter of a clone with `slots` slots (at least one); `singleTouch`: the one slot made for a
    /// single-touch panel; `buttons`: the clone's touch and finger-count buttons, for hold mode.
    public init(slots: Int, singleTouch: SingleTouchSlot? = nil, mode: Mode = .cancel, buttons: [UInt16] = []) {
        self.mode = mode
        self.slots = Array(repeating: .idle, count: max(1, slots))
        self.singleTouch = singleTouch
        held = Array(repeating: .free, count: mode == .hold ? max(1, slots) : 0)
        self.buttons = buttons
        translated.reserveCapacity(singleTouch == nil ? 0 : 64)
    }

    /// Whether the clone's one slot is made here from a single-touch panel, following what the tracker made
    /// of each frame (``rewrite(_:cancelling:held:into:)``'s `held`).
    public var makesItsSlot: Bool { singleTouch != nil }

    static let unstamped = Timestamp(microseconds: 0)

    /// Appends to `out` the clone's events for `events` (a frame of the panel, up to and with its
    /// `SYN_REPORT`, or the start of one): before the `SYN_REPORT`, the slots in `cancelling` that are not
    /// palms yet become palms. A single-touch panel's frame gets its slot's events first, `held` saying
    /// whether the tracker has the panel held after it. In hold mode, `holds` says which touches are held
    /// (``CloneHolds``), and a frame's start waits for its end.
    public mutating func rewrite(
        _ events: ArraySlice<InputEvent>, cancelling: [Int], held: Bool = false, holds: CloneHolds = .none,
        into out: inout [InputEvent]
    ) {
        if mode == .hold { return rewriteHolding(events, cancelling: cancelling, held: held, holds: holds, into: &out) }
        guard singleTouch != nil else { return pass(events, cancelling, &out) }
        translated.removeAll(keepingCapacity: true)
        singleTouch?.translate(events, held: held, into: &translated)
        pass(translated[...], cancelling, &out)
    }

    private mutating func pass(_ events: ArraySlice<InputEvent>, _ cancelling: [Int], _ out: inout [InputEvent]) {
        // The panel's tool type for a palm slot, dropped: the slot's next contact takes it if it begins in
        // this frame.
        var panelTool: (slot: Int32, value: Int32)? = nil
        for e in events {
            if e.type == EventType.abs {
                if !passesSlotEvent(e, &panelTool, &out) { continue }
            } else if e.type == EventType.syn && e.code == SynCode.report {
                endFrame(cancelling, &out)
            }
            put(e.type, e.code, e.value, &out)
        }
    }

    /// The panel's absolute event `e` through the current slot's ``CloneSlot``: false when it is dropped
    /// (a palm slot's tool type, kept in `panelTool` for the slot's next contact of the frame); a finger's
    /// tool type goes before a palm slot's next tracking id.
    @inline(__always)
    mutating func passesSlotEvent(
        _ e: InputEvent, _ panelTool: inout (slot: Int32, value: Int32)?, _ out: inout [InputEvent]
    ) -> Bool {
        switch e.code {
        case AbsCode.mtSlot:
            currentSlot = e.value
        case AbsCode.mtToolType:
            if apply(.toolType) == .drop {
                panelTool = (currentSlot, e.value)
                return false
            }
        case AbsCode.mtTrackingID:
            if apply(.trackingID(e.value)) == .toolFirst {
                let tool = panelTool.flatMap { $0.slot == currentSlot ? $0.value : nil } ?? MTTool.finger
                put(EventType.abs, AbsCode.mtToolType, tool, &out)
            }
        default:
            break
        }
        return true
    }

    /// The current slot's transition; a slot the clone does not have passes its events as they are.
    private mutating func apply(_ input: CloneSlot.Input) -> CloneSlot.Action {
        guard currentSlot >= 0 && Int(currentSlot) < slots.count else { return .pass }
        return slots[Int(currentSlot)].apply(input)
    }

    /// Before a frame's `SYN_REPORT`: what the hub cancels (a held touch's cancel is hold mode's).
    private mutating func endFrame(_ cancelling: [Int], _ out: inout [InputEvent]) {
        switch mode {
        case .cancel: markPalms(cancelling, &out)
        case .hold: markPalms(cancelling.filter { !held.indices.contains($0) || !held[$0].isKept }, &out)
        }
    }

    /// The slots to cancel that are not palms yet become palms; the current slot is put back.
    mutating func markPalms(_ cancelling: [Int], _ out: inout [InputEvent]) {
        var marked = false
        for s in cancelling where slots.indices.contains(s) && slots[s].apply(.cancel) == .markPalm {
            put(EventType.abs, AbsCode.mtSlot, Int32(s), &out)
            put(EventType.abs, AbsCode.mtToolType, MTTool.palm, &out)
            marked = true
        }
        if marked { put(EventType.abs, AbsCode.mtSlot, currentSlot, &out) }
    }

    /// Appends to `out` one frame cancelling every touch on the clone: each slot becomes a palm and lifts
    /// (libinput turns a begun touch's palm into `TOUCH_CANCEL`; the kernel drops the lifts of empty slots),
    /// every touch and tool button goes up (the kernel passes on those the clone has and that were down),
    /// and the slot's next contact is made a finger again as after any cancel. `currentSlot`: the panel's.
    /// In hold mode a held touch was never down on the clone: it is forgotten, nothing to cancel.
    public mutating func endContacts(currentSlot slot: Int32, into out: inout [InputEvent]) {
        for s in held.indices { _ = held[s].apply(.end) }
        shownCount = 0
        pending.removeAll()
        for s in slots.indices {
            _ = slots[s].apply(.end)
            put(EventType.abs, AbsCode.mtSlot, Int32(s), &out)
            put(EventType.abs, AbsCode.mtToolType, MTTool.palm, &out)
            put(EventType.abs, AbsCode.mtTrackingID, -1, &out)
        }
        for code in KeyCode.btnDigi...KeyCode.btnToolQuadTap { put(EventType.key, code, 0, &out) }
        currentSlot = max(0, min(slot, Int32(slots.count - 1)))
        put(EventType.abs, AbsCode.mtSlot, currentSlot, &out)
        put(EventType.syn, SynCode.report, 0, &out)
    }

    /// The frames restating `panel` on the clone after `SYN_DROPPED`, each one write: the panel's whole state
    /// as one frame, so no touch is left down on the clone that the panel no longer has; before it, a frame
    /// lifting the clone's contacts that the panel ended or replaced, when there are any (``CloneSlot``'s
    /// `restated`). A single-touch panel's state goes through its slot as a frame like any other (`held`:
    /// whether the tracker has the panel held after the resync).
    /// In hold mode, `holds` says which touches are held: a held touch the panel still has goes on being
    /// held, one it ended is dropped (never shown, so nothing to lift), and the clone's buttons count only
    /// what it shows.
    public mutating func restate(
        _ panel: PanelSnapshot, cancelling: [Int], held: Bool, holds: CloneHolds = .none
    ) -> [[InputEvent]] {
        var frame: [InputEvent] = []
        if singleTouch != nil {
            var state = panel.others
            state.append(InputEvent(time: Self.unstamped, type: EventType.syn, code: SynCode.report, value: 0))
            pending.removeAll()
            rewrite(state[...], cancelling: cancelling, held: held, holds: holds, into: &frame)
            return [frame]
        }
        // Hold mode: the held slots are restated empty (their touch goes on being held, or is dropped).
        let restated = mode == .hold ? restateHeld(panel, holds) : panel.slots
        let count = min(restated.count, slots.count)
        let actions = (0..<count).map { slots[$0].apply(.restated(trackingID: restated[$0].trackingID)) }
        var frames: [[InputEvent]] = []
        for s in 0..<count {
            guard case .restate(liftFirst: true, _) = actions[s] else { continue }
            put(EventType.abs, AbsCode.mtSlot, Int32(s), &frame)
            put(EventType.abs, AbsCode.mtTrackingID, -1, &frame)
        }
        if !frame.isEmpty {
            if mode == .hold { writeButtons(&frame) }
            put(EventType.syn, SynCode.report, 0, &frame)
            frames.append(frame)
            frame.removeAll()
        }
        for s in 0..<count {
            put(EventType.abs, AbsCode.mtSlot, Int32(s), &frame)
            if case .restate(_, fingerFirst: true) = actions[s] {
                put(EventType.abs, AbsCode.mtToolType, MTTool.finger, &frame)
            }
            for e in restated[s].values { put(e.type, e.code, e.value, &frame) }
        }
        for e in panel.others where mode == .cancel || keepsOther(e) { put(e.type, e.code, e.value, &frame) }
        currentSlot = max(0, panel.currentSlot)
        endFrame(cancelling, &frame)
        if mode == .hold { endHoldFrame(&frame) }
        put(EventType.abs, AbsCode.mtSlot, currentSlot, &frame)
        put(EventType.syn, SynCode.report, 0, &frame)
        frames.append(frame)
        if mode == .hold {
            var released: [InputEvent] = []
            settle(cancelling: cancelling, holds: holds, into: &released)
            if !released.isEmpty { frames.append(released) }
        }
        return frames
    }

    func put(_ type: UInt16, _ code: UInt16, _ value: Int32, _ out: inout [InputEvent]) {
        out.append(InputEvent(time: Self.unstamped, type: type, code: code, value: value))
    }
}
