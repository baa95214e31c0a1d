/// One slot of filter mode's clone as the compositor sees it (`docs/filter.md`): whether a contact is down
/// in it, and whether its tool type is `MT_TOOL_PALM`, which is how a touch is cancelled from below the
/// compositor (libinput turns the palm of a touch it began into `TOUCH_CANCEL`). ``CloneRewriter`` keeps
/// one a slot and asks it what becomes of each of the panel's events for the slot.
///
/// A palm stays a palm past the lift, until the slot's next contact begins: that one is made a finger
/// again just before its tracking id (libinput reads the slot's tool type as a touch begins, and never
/// reports a touch that begins a palm). Meanwhile the panel's own tool type for the slot is kept from the
/// clone, so the palm is not undone.
///
/// One transition function, ``apply(_:)``:
///
/// | state \ input | `trackingID(id ≥ 0)` | `trackingID(-1)` | `toolType` | `cancel` | `end` | `restated(id)` |
/// |---|---|---|---|---|---|---|
/// | `idle` | `down(id)`: pass | `idle`: pass | pass | `palmIdle`: mark palm | `palmIdle`: palm, lift | `down(id)` (`idle` for -1) |
/// | `down(t)` | `down(id)`: pass (the panel's second id, as it came) | `idle`: pass | pass | `palm(t)`: mark palm | `palmIdle`: palm, lift | id = t: `down(t)`; else lift first, then `down(id)` (`idle` for -1) |
/// | `palm(t)` | `down(id)`: a finger first | `palmIdle`: pass | drop | `palm(t)`: nothing | `palmIdle`: palm, lift | id = t: `palm(t)`; else lift first, then `down(id)` a finger first (`palmIdle` for -1) |
/// | `palmIdle` | `down(id)`: a finger first | `palmIdle`: pass | drop | `palmIdle`: nothing | `palmIdle`: palm, lift | `down(id)` a finger first (`palmIdle` for -1) |
///
/// "Lift first" is a frame of its own before the restatement: a tracking id straight after another is "a
/// double tracking ID" that libevdev drops (the old touch would go on where the new one is), and libinput
/// takes no lift and touch of one slot in one frame.
///
/// This is the machine of the one mode there is (``CloneRewriter/Mode/cancel``): a taken touch is cancelled
/// at once. A mode that held a taken touch back instead would add states of its own (a slot whose events
/// are kept from the clone until the touch is decided) and inputs to decide it.
public enum CloneSlot: Hashable, Sendable {
    /// No contact, and a finger's tool type (or the panel's own).
    case idle
    /// The panel's contact `trackingID`, passed on as it comes.
    case down(trackingID: Int32)
    /// The panel's contact `trackingID`, cancelled: its tool type is a palm on the clone.
    case palm(trackingID: Int32)
    /// No contact, the tool type still a palm: the slot's next contact is made a finger first.
    case palmIdle

    /// What happens to the slot.
    public enum Input: Hashable, Sendable {
        /// The panel's `ABS_MT_TRACKING_ID` in the slot: a contact begins (≥ 0) or lifts (-1).
        case trackingID(Int32)
        /// The panel's `ABS_MT_TOOL_TYPE` in the slot.
        case toolType
        /// At the frame's end, the hub cancels the slot's touch (a gesture took it, or it is a palm).
        case cancel
        /// Every touch on the clone ends: the daemon stops, or takes the clone back after a crash.
        case end
        /// After `SYN_DROPPED` and libevdev's resync: the tracking id the panel holds in the slot now.
        case restated(trackingID: Int32)
    }

    /// What the clone is written for the slot.
    public enum Action: Hashable, Sendable {
        /// The panel's event, as it is.
        case pass
        /// Not the panel's event: a palm stays a palm until its contact lifts.
        case drop
        /// A tool type (a finger, or the panel's own from the same frame), then the panel's tracking id.
        case toolFirst
        /// The slot's tool type becomes `MT_TOOL_PALM`.
        case markPalm
        /// Nothing.
        case nothing
        /// The slot's tool type becomes `MT_TOOL_PALM`, and its contact lifts.
        case palmAndLift
        /// The slot restated: `liftFirst`, its contact lifts in a frame before the restatement;
        /// `fingerFirst`, a finger's tool type goes before the slot's new contact.
        case restate(liftFirst: Bool, fingerFirst: Bool)
    }

    /// The transition: the slot's next state for `input` (the table above), and what the clone is written.
    public mutating func apply(_ input: Input) -> Action {
        switch (self, input) {
        case (.idle, .trackingID(let id)), (.down, .trackingID(let id)):
            self = id >= 0 ? .down(trackingID: id) : .idle
            return .pass
        case (.palm, .trackingID(let id)), (.palmIdle, .trackingID(let id)):
            guard id >= 0 else {
                self = .palmIdle
                return .pass
            }
            self = .down(trackingID: id)
            return .toolFirst
        case (.idle, .toolType), (.down, .toolType):
            return .pass
        case (.palm, .toolType), (.palmIdle, .toolType):
            return .drop
        case (.idle, .cancel):
            self = .palmIdle
            return .markPalm
        case (.down(let t), .cancel):
            self = .palm(trackingID: t)
            return .markPalm
        case (.palm, .cancel), (.palmIdle, .cancel):
            return .nothing
        case (.idle, .end), (.down, .end), (.palm, .end), (.palmIdle, .end):
            self = .palmIdle
            return .palmAndLift
        case (.idle, .restated(let id)):
            self = id >= 0 ? .down(trackingID: id) : .idle
            return .restate(liftFirst: false, fingerFirst: false)
        case (.down(let t), .restated(let id)):
            self = id >= 0 ? .down(trackingID: id) : .idle
            return .restate(liftFirst: id != t, fingerFirst: false)
        case (.palm(let t), .restated(let id)):
            guard id != t else { return .restate(liftFirst: false, fingerFirst: false) }
            self = id >= 0 ? .down(trackingID: id) : .palmIdle
            return .restate(liftFirst: true, fingerFirst: id >= 0)
        case (.palmIdle, .restated(let id)):
            self = id >= 0 ? .down(trackingID: id) : .palmIdle
            return .restate(liftFirst: false, fingerFirst: id >= 0)
        }
    }

    /// The contact the clone shows in the slot (a finger or a palm), nil for none.
    public var shownTrackingID: Int32? {
        switch self {
        case .down(let t), .palm(let t): return t
        case .idle, .palmIdle: return nil
        }
    }

    /// Whether the clone's tool type in the slot is a palm.
    public var isPalm: Bool {
        switch self {
        case .idle, .down: return false
        case .palm, .palmIdle: return true
        }
    }
}
