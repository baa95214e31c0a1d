/// The gesture state machine of one contact: peek, pop, dismiss, quick actions and long press.
///
/// Inputs come from the contact tracker (`frame`, `lift`, `cancel`) and from the owner's timer (`timeout`,
/// the deadline the detector asked for, coming back in). ``handle(_:thresholds:)`` has no side effect: its
/// ``Transition`` names the gestures to send and what to do with the timer; time comes only from inputs.
/// Peek and pop are latched (a peek stays open until the lift), so a finger on a threshold cannot flap.
/// The transition table and the choices behind it are `docs/gestures.md`'s; `GestureTableDocTests` holds
/// ``handle(_:thresholds:)`` to that table.
public struct PeekPopDetector: Hashable, Sendable {
    /// Where a contact stands.
    public enum State: Hashable, Sendable {
        /// Down, not peeked, within slop; a long press is pending at `deadline`.
        case possible(originX: Int32, originY: Int32, deadline: Timestamp)
        /// Down, not peeked, moved beyond slop: no long press any more.
        case tracking
        /// The long press fired.
        case longPressed
        /// Peek sent; `originY` is where the finger was when it peeked.
        case peeking(originY: Int32)
        /// Quick actions sent during a peek.
        case quickActions
        /// Pop sent.
        case popped
        /// Lifted or cancelled.
        case ended
    }

    /// What happens to a contact.
    public enum Input: Hashable, Sendable {
        case frame(time: Timestamp, x: Int32, y: Int32, pressure: Int32)
        case timeout(Timestamp)
        case lift(Timestamp)
        case cancel(Timestamp)
    }

    /// What the owner must do with the long-press timer. There is no "arm": the only deadline is the one a
    /// contact starts with (``deadline``, read by the owner when the contact begins), so a transition can
    /// only leave the timer alone or cancel it.
    public enum TimerAction: Hashable, Sendable {
        case none
        case cancel
    }

    /// The outcome of one input: up to two gestures (peek and pop can share a frame) and a timer action.
    public struct Transition: Hashable, Sendable {
        public var first: GestureKind?
        public var second: GestureKind?
        public var timer: TimerAction
        /// True when the input was impossible in the state (the owner logs it; nothing traps).
        public var impossible: Bool

        @inlinable init(_ first: GestureKind? = nil, _ second: GestureKind? = nil,
                        timer: TimerAction = .none, impossible: Bool = false) {
            self.first = first
            self.second = second
            self.timer = timer
            self.impossible = impossible
        }

        public static let nothing = Transition()
    }

    public internal(set) var state: State

    /// A contact that touched down at `time` and (`x`, `y`); the owner arms its timer for ``deadline``.
    public init(downAt time: Timestamp, x: Int32, y: Int32, thresholds: GestureThresholds) {
        state = .possible(originX: x, originY: y, deadline: time + thresholds.longPressDuration)
    }

    /// The pending long-press deadline, if any.
    public var deadline: Timestamp? {
        if case .possible(_, _, let d) = state { return d }
        return nil
    }

    /// The one transition function. Exhaustive over (state, input), with no `default`.
    public mutating func handle(_ input: Input, thresholds t: GestureThresholds) -> Transition {
        switch (state, input) {
        case (.possible(let ox, let oy, _), .frame(_, let x, let y, let p)):
            if p >= t.popRaw {
                state = .popped
                return Transition(.peek, .pop, timer: .cancel)
            }
            if p >= t.peekRaw {
                state = .peeking(originY: y)
                return Transition(.peek, timer: .cancel)
            }
            if Self.beyondSlop(dx: x &- ox, dy: y &- oy, t) {
                state = .tracking
                return Transition(timer: .cancel)
            }
            return .nothing
        case (.possible(_, _, let deadline), .timeout(let now)):
            guard now >= deadline else { return .nothing }
            state = .longPressed
            return Transition(.longPress)
        case (.possible, .lift), (.possible, .cancel):
            state = .ended
            return Transition(timer: .cancel)

        case (.tracking, .frame(_, _, let y, let p)):
            if p >= t.popRaw {
                state = .popped
                return Transition(.peek, .pop)
            }
            if p >= t.peekRaw {
                state = .peeking(originY: y)
                return Transition(.peek)
            }
            return .nothing
        case (.tracking, .timeout):
            return .nothing
        case (.tracking, .lift), (.tracking, .cancel):
            state = .ended
            return .nothing

        case (.longPressed, .frame), (.longPressed, .timeout):
            return .nothing
        case (.longPressed, .lift), (.longPressed, .cancel):
            state = .ended
            return .nothing

        case (.peeking(let oy), .frame(_, _, let y, let p)):
            if p >= t.popRaw {
                state = .popped
                return Transition(.pop)
            }
            // Device y grows downwards: "towards the top of the screen" is a decreasing y.
            if Int64(oy) - Int64(y) >= Int64(t.quickActionsTravel) {
                state = .quickActions
                return Transition(.quickActions)
            }
            return .nothing
        case (.peeking, .timeout):
            return .nothing
        case (.peeking, .lift), (.peeking, .cancel):
            state = .ended
            return Transition(.dismiss)

        case (.quickActions, .frame), (.quickActions, .timeout):
            return .nothing
        case (.quickActions, .lift), (.quickActions, .cancel):
            state = .ended
            return Transition(.dismiss)

        case (.popped, .frame), (.popped, .timeout):
            return .nothing
        case (.popped, .lift), (.popped, .cancel):
            state = .ended
            return .nothing

        case (.ended, .frame), (.ended, .timeout), (.ended, .lift), (.ended, .cancel):
            return Transition(impossible: true)
        }
    }

    @inlinable static func beyondSlop(dx: Int32, dy: Int32, _ t: GestureThresholds) -> Bool {
        let nx = Double(dx) / t.slopX
        let ny = Double(dy) / t.slopY
        return nx * nx + ny * ny > 1.0
    }

    /// A short name for logs: `peeking`, `possible`, ….
    public var stateName: String {
        switch state {
        case .possible: return "possible"
        case .tracking: return "tracking"
        case .longPressed: return "longPressed"
        case .peeking: return "peeking"
        case .quickActions: return "quickActions"
        case .popped: return "popped"
        case .ended: return "ended"
        }
    }
}
