/// The hub's word on a hold-mode clone's held touches after the frames handed over
/// (``CloneRewriter/Mode/hold``): which slots' touches are held, and which were taken by a gesture while
/// held, the taken ones including those that lifted in those frames (a long press due at the lift is still
/// no tap). A held slot in neither is let go (``HeldTouch/Verdict``).
public struct CloneHolds: Hashable, Sendable {
    /// The slots whose touch is held, not decided yet.
    public var holding: [Int]
    /// The slots whose held touch a gesture took.
    public var taken: [Int]

    public init(holding: [Int] = [], taken: [Int] = []) {
        self.holding = holding
        self.taken = taken
    }

    /// No touch held.
    public static let none = CloneHolds()

    /// The verdict on slot `s`'s held touch, `cancelling` being the slots the hub cancels now. A slot both
    /// holding and taken is one whose taken touch lifted and whose next began in the same frames: the
    /// holding one is the slot's now.
    func verdict(_ s: Int, cancelling: [Int]) -> HeldTouch.Verdict {
        if holding.contains(s) { return .hold }
        return taken.contains(s) || cancelling.contains(s) ? .take : .release
    }

    /// Whether a touch beginning in slot `s` is held.
    func holds(_ s: Int) -> Bool { holding.contains(s) || taken.contains(s) }
}
