/// What one finished contact tells the average-touch learner: how hard it pressed at most, how it ended,
/// whether it was a stationary hold or a deliberate pop, and whether its pressure only echoed its size.
/// ``TouchPipeline`` builds one per contact as the contact ends; ``AverageTouchLearner/observe(_:)``
/// decides whether it is an ordinary touch.
public struct ContactSummary: Hashable, Sendable {
    /// How the contact ended.
    public enum Ending: Hashable, Sendable {
        /// The finger lifted.
        case lifted
        /// `SYN_DROPPED`, an unplug, the end of a replay: its pressure history is incomplete.
        case cancelled
        /// The kernel (or its size) said it was a palm.
        case palm
    }

    public var ending: Ending
    /// The highest raw pressure of any of its frames.
    public var peak: Int32
    /// The lowest raw pressure of any of its frames (touch-down and lift included).
    public var lowest: Int32
    public var began: Timestamp
    public var ended: Timestamp
    /// Whether it moved beyond the long-press slop at some point.
    public var movedBeyondSlop: Bool
    /// Whether it popped.
    public var popped: Bool
    /// Whether it long-pressed.
    public var longPressed: Bool
    /// How its pressure stood to its touch major over its frames.
    public var sizeEcho: SizeEcho

    public init(
        ending: Ending, peak: Int32, lowest: Int32, began: Timestamp, ended: Timestamp,
        movedBeyondSlop: Bool, popped: Bool = false, longPressed: Bool = false, sizeEcho: SizeEcho = .unseen
    ) {
        self.ending = ending
        self.peak = peak
        self.lowest = lowest
        self.began = began
        self.ended = ended
        self.movedBeyondSlop = movedBeyondSlop
        self.popped = popped
        self.longPressed = longPressed
        self.sizeEcho = sizeEcho
    }

    public var duration: Timestamp.Duration { ended - began }
}
