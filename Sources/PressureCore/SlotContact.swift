/// What the tracker made of the contact in one slot, moved on by one transition function per frame. How a
/// frame reads as a ``Reading``: `docs/gestures.md`, "A slot's contact, frame by frame". A contact that
/// ended inside the frame (``lifted()``) ends first (a touch ends, anything else goes idle); then ``next(_:)``:
///
/// | state \ reading | absent        | hovering       | palm                                | touching            |
/// |-----------------|---------------|----------------|-------------------------------------|---------------------|
/// | idle            | idle          | hovering       | ignored(palm), counted              | touching: began     |
/// | hovering        | idle          | hovering       | ignored(palm), counted              | touching: began     |
/// | touching        | idle: ended   | hovering: ended | ignored(palm): cancelled as palm, counted | touching: moved if changed |
/// | ignored(_)      | idle          | ignored(_)     | ignored(_)                          | ignored(_)          |
///
/// Ignored is latched until the contact ends, as libinput latches a palm and as nothing can be known of a
/// contact whose events `SYN_DROPPED` lost: a palm the firmware later calls a finger stays ignored.
enum SlotContact: Hashable, Sendable {
    case idle
    case hovering
    case touching
    case ignored(IgnoredBecause)

    enum IgnoredBecause: Hashable, Sendable {
        /// The firmware marked it `MT_TOOL_PALM`, or it was larger than the palm size.
        case palm
        /// `SYN_DROPPED` lost its events; or it was not reported when a resync or the end of a device
        /// cancelled it.
        case dropped
    }

    /// What a frame says about the contact in a slot.
    enum Reading: Hashable, Sendable {
        case absent
        case hovering
        /// `bySize`: its touch major exceeded the palm size (else the firmware said `MT_TOOL_PALM`).
        case palm(bySize: Bool)
        case touching
    }

    /// What the tracker reports for a transition.
    enum Action: Hashable, Sendable {
        case nothing
        case begin
        /// Still touching: a move if position or pressure changed.
        case carryOn
        case end
        /// A touch became a palm: cancelled (the pipeline dismisses an open peek), counted.
        case cancelAsPalm(bySize: Bool)
        /// A contact never reported became a palm: nothing to report, counted.
        case ignorePalm(bySize: Bool)
    }

    /// The contact ended inside the frame.
    func lifted() -> (SlotContact, Action) {
        self == .touching ? (.idle, .end) : (.idle, .nothing)
    }

    /// The transition for one frame's reading (the table above).
    func next(_ reading: Reading) -> (SlotContact, Action) {
        switch (self, reading) {
        case (.idle, .absent), (.hovering, .absent): return (.idle, .nothing)
        case (.idle, .hovering), (.hovering, .hovering): return (.hovering, .nothing)
        case (.idle, .palm(let bySize)), (.hovering, .palm(let bySize)):
            return (.ignored(.palm), .ignorePalm(bySize: bySize))
        case (.idle, .touching), (.hovering, .touching): return (.touching, .begin)
        case (.touching, .absent): return (.idle, .end)
        case (.touching, .hovering): return (.hovering, .end)
        case (.touching, .palm(let bySize)): return (.ignored(.palm), .cancelAsPalm(bySize: bySize))
        case (.touching, .touching): return (.touching, .carryOn)
        case (.ignored, .absent): return (.idle, .nothing)
        case (.ignored, .hovering), (.ignored, .palm), (.ignored, .touching): return (self, .nothing)
        }
    }

    /// Whether a contact is there (for matching protocol A contacts frame to frame, and for the
    /// hysteresis of single-touch panels, which holds a contact until it lifts).
    var isOccupied: Bool { self != .idle }

    /// A name for debug lines and tests.
    var name: String {
        switch self {
        case .idle: return "idle"
        case .hovering: return "hovering"
        case .touching: return "touching"
        case .ignored(.palm): return "ignored(palm)"
        case .ignored(.dropped): return "ignored(dropped)"
        }
    }
}
