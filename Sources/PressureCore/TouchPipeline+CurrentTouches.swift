/// The contacts down now as events, for a client whose stream starts or stops while fingers are down
/// (``Hub``): it gets a `began` of each contact's current state first, and, when its stream stops, a
/// `dismiss` for each peek and a `cancelled` for each contact still open for it, so every contact it sees
/// begin also ends, and every peek it sees ends.
extension TouchPipeline {
    /// A `phase` event of every contact down now (its current position, force and progress), at `time`.
    public func currentTouches(_ phase: PressureEvent.TouchPhase, at time: Timestamp) -> [PressureEvent] {
        contacts.compactMap { c in c.map { currentEvent($0, .touch(phase), time) } }
    }

    /// Whether the contact is down now.
    public func isDown(contact id: UInt64) -> Bool { contacts.contains { $0?.id == id } }

    /// The slot the contact is down in (the kernel's `ABS_MT_SLOT` on a protocol B device), nil once it
    /// is up: where filter mode marks it on the clone.
    public func slot(ofContact id: UInt64) -> Int? { contacts.firstIndex { $0?.id == id } }

    /// Whether the contact, down now, has moved beyond the long-press slop from where it began
    /// (`LongPressSlopMm`): filter mode lets a held touch go to the app then (a drag, a scroll).
    public func hasMoved(contact id: UInt64) -> Bool {
        guard let i = slot(ofContact: id) else { return false }
        return records[i].moved
    }

    /// Whether the panel is held in `slot`: a touch down, or a contact the tracker ignores until it lifts
    /// (a palm, or one `SYN_DROPPED` cut); not a hovering one. Filter mode's one-slot clone of a
    /// single-touch panel follows it (``SingleTouchSlot``).
    public func isHeld(slot: Int) -> Bool {
        guard tracker.slots.indices.contains(slot) else { return false }
        switch tracker.slots[slot].contact {
        case .touching, .ignored: return true
        case .idle, .hovering: return false
        }
    }

    /// The slots whose contact the tracker ignores as a palm (the firmware's `MT_TOOL_PALM`, or larger than
    /// the palm size): those filter mode's `FilterPalms` marks on the clone too.
    public var palmSlots: [Int] { tracker.slots.indices.filter { tracker.slots[$0].contact == .ignored(.palm) } }

    /// A `kind` event of the contact: its current state while it is down, else the state its last event
    /// among ``outputs`` carries (it ended in the events being handed on); nil when neither.
    public func currentEvent(contact id: UInt64, _ kind: PressureEvent.Kind, at time: Timestamp) -> PressureEvent? {
        if let c = contacts.first(where: { $0?.id == id }), let c {
            return currentEvent(c, kind, time)
        }
        guard var last = outputs.last(where: { $0.contact == id }) else { return nil }
        last.kind = kind
        last.progress = nil
        return last
    }

    private func currentEvent(_ c: ActiveContact, _ kind: PressureEvent.Kind, _ time: Timestamp) -> PressureEvent {
        // As the pipeline's own: only `began` and `moved` carry progress (an end, or a gesture, has none).
        let progress = kind == .touch(.began) || kind == .touch(.moved) ? progress(c) : nil
        return event(kind, c, time, progress: progress)
    }

    /// Progress towards the next threshold: peek while not peeked, then pop; nil past both, after a long
    /// press, or where force is unavailable.
    @inline(__always)
    func progress(_ c: ActiveContact) -> Double? {
        guard thresholds.forceGesturesEnabled else { return nil }
        let f = force(raw: c.pressure)
        let t = thresholds
        switch c.detector.state {
        case .possible, .tracking:
            return min(1, max(0, f / t.peekForce))
        case .peeking:
            return t.popForce > t.peekForce ? min(1, max(0, (f - t.peekForce) / (t.popForce - t.peekForce))) : 1
        case .longPressed, .quickActions, .popped, .ended:
            return nil
        }
    }
}
