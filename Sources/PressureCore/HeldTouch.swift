/// One slot of filter mode's clone in hold mode (``CloneRewriter/Mode/hold``, `docs/filter.md`): whether the
/// slot's contact is kept from the clone until pressured knows what it is. A touch that begins where a
/// gesture could take it is *held*: its events are remembered, not written. Then the hub decides
/// (``Verdict``, at each frame's end): a gesture took it, and the app never sees it (*withheld* until it
/// lifts); or it is let go (it moved beyond the slop, or stayed still past the bound), and the clone gets
/// its down at its first point and its moves so far, then the touch live; or it lifted first, and the clone
/// gets the whole touch then, so a tap clicks once. ``CloneRewriter`` keeps one a slot beside its
/// ``CloneSlot``, which goes on saying what the clone shows.
///
/// The moves of a held touch are coalesced: the latest value of each axis, written as one frame after the
/// down (a tap's, or a drag's first stretch, needs no more to be the same touch to the app).
///
/// One transition function, ``apply(_:)``:
///
/// | state \ input | `began(id, hold)` | `value` | `lifted` | `frameEnd(hold)` | `frameEnd(take)` | `frameEnd(release)` | `end` |
/// |---|---|---|---|---|---|---|---|
/// | `free` | hold: `holding`, keep; else `free`, pass | pass | pass | nothing | nothing | nothing | nothing |
/// | `holding(h)` | as `free` (the held contact dropped, never shown) | `holding`: remembered, keep | `holding`, lifted: keep | lifted: `free`, release; else `holding`: nothing | lifted: `free`; else `withheld(id)`: nothing | `free`: release | `free`: nothing |
/// | `withheld(id)` | as `free` | keep | `free`: keep | nothing | nothing | nothing | `free`: nothing |
///
/// "Release" writes `h`: its down (the frame it began in), its coalesced moves, and its lift if it lifted,
/// each a frame of its own so libinput sees a down and then an up. `end` (the daemon stops, takes a kept
/// clone back, or loses the contact to `SYN_DROPPED`): a held touch was never down on the clone, so there
/// is nothing to cancel.
public enum HeldTouch: Hashable, Sendable {
    /// The slot's events pass as they come (no contact, or one not held).
    case free
    /// The panel's contact, kept from the clone until decided.
    case holding(Held)
    /// A gesture took the held contact `trackingID`: its events are dropped until it lifts.
    case withheld(trackingID: Int32)

    /// What is remembered of a held contact.
    public struct Held: Hashable, Sendable {
        public var trackingID: Int32
        /// The slot's events of the frame the contact began in, its tracking id first: its first point.
        public private(set) var down: [InputEvent]
        /// The slot's values since, the latest of each code, in the order they first came.
        public private(set) var moves: [InputEvent] = []
        /// The frame the contact began in has ended: later values are moves.
        var begun = false
        /// The panel lifted it in the frame being read.
        public internal(set) var lifted = false

        public init(trackingID: Int32) {
            self.trackingID = trackingID
            down = [InputEvent(time: CloneRewriter.unstamped, type: EventType.abs, code: AbsCode.mtTrackingID, value: trackingID)]
        }

        mutating func remember(_ e: InputEvent) {
            if !begun {
                if let k = down.firstIndex(where: { $0.type == e.type && $0.code == e.code }) { down[k] = e } else { down.append(e) }
            } else if let k = moves.firstIndex(where: { $0.type == e.type && $0.code == e.code }) {
                moves[k] = e
            } else {
                moves.append(e)
            }
        }
    }

    /// The hub's word on a held contact at a frame's end (``CloneHolds``).
    public enum Verdict: Hashable, Sendable {
        /// Not decided yet: keep holding.
        case hold
        /// A gesture took it: the app never sees it.
        case take
        /// Let go: the clone gets it.
        case release
    }

    /// What happens to the slot.
    public enum Input: Hashable, Sendable {
        /// The panel's `ABS_MT_TRACKING_ID` ≥ 0 in the slot; `hold`: the hub holds the contact.
        case began(trackingID: Int32, hold: Bool)
        /// Another of the panel's multi-touch values in the slot.
        case value(InputEvent)
        /// The panel's `ABS_MT_TRACKING_ID` -1 in the slot.
        case lifted
        /// The frame ends, with the hub's verdict on the slot's contact.
        case frameEnd(Verdict)
        /// Every touch on the clone ends, or the contact was lost.
        case end
    }

    /// What the clone is written for the slot.
    public enum Action: Hashable, Sendable {
        /// The panel's event, as the clone's slot says (``CloneSlot``).
        case pass
        /// Not written now: remembered (held) or dropped (withheld).
        case keep
        /// Nothing.
        case nothing
        /// The held contact, written now: down, moves, and its lift if it lifted.
        case release(Held)
    }

    /// The transition: the slot's next state for `input` (the table above), and what the clone is written.
    public mutating func apply(_ input: Input) -> Action {
        switch (self, input) {
        case (_, .began(let id, let hold)):
            self = hold ? .holding(Held(trackingID: id)) : .free
            return hold ? .keep : .pass
        case (.free, .value), (.free, .lifted):
            return .pass
        case (.free, .frameEnd), (.free, .end):
            return .nothing
        case (.holding(var h), .value(let e)):
            h.remember(e)
            self = .holding(h)
            return .keep
        case (.holding(var h), .lifted):
            h.lifted = true
            self = .holding(h)
            return .keep
        case (.holding(var h), .frameEnd(.hold)):
            if h.lifted {
                self = .free
                return .release(h)
            }
            h.begun = true
            self = .holding(h)
            return .nothing
        case (.holding(let h), .frameEnd(.take)):
            self = h.lifted ? .free : .withheld(trackingID: h.trackingID)
            return .nothing
        case (.holding(let h), .frameEnd(.release)):
            self = .free
            return .release(h)
        case (.holding, .end):
            self = .free
            return .nothing
        case (.withheld, .value):
            return .keep
        case (.withheld, .lifted):
            self = .free
            return .keep
        case (.withheld, .frameEnd):
            return .nothing
        case (.withheld, .end):
            self = .free
            return .nothing
        }
    }

    /// Whether the slot's contact is kept from the clone (held or withheld).
    public var isKept: Bool {
        switch self {
        case .free: return false
        case .holding, .withheld: return true
        }
    }

    /// Whether the slot's contact is held and not decided yet.
    public var isHolding: Bool {
        if case .holding = self { return true }
        return false
    }
}
