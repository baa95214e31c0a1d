/// Whether a listener is out of the loop for now, and until when: where accepting cannot go on
/// (``GuardedAccept/unavailable(_:)``) the loop stops polling the listener for ``period`` (one try a
/// second at most while the condition lasts), or until a connection closes (a descriptor freed),
/// whichever comes first. A level-triggered listener left in the loop would wake it at once, again and
/// again. Pure: the loop passes its monotonic clock in and arms its timer for ``until``.
public struct ListenerRest: Equatable, Sendable {
    /// How long a rest lasts at most (µs).
    public static let period: Int64 = 1_000_000

    /// When the rest ends; nil while the listener is polled.
    public private(set) var until: Int64? = nil
    /// Rests begun since start.
    public private(set) var count = 0

    public init() {}

    public var isResting: Bool { until != nil }

    /// Begins a rest at `now` (the caller takes the listener out of the loop).
    public mutating func begin(now: Int64) {
        until = now + Self.period
        count += 1
    }

    /// Ends a rest, whether its time is over or a descriptor freed; true when there was one to end (the
    /// caller polls the listener again).
    public mutating func end() -> Bool {
        guard until != nil else { return false }
        until = nil
        return true
    }

    /// Whether a rest is running and its time is over at `now`.
    public func isOver(now: Int64) -> Bool { until.map { $0 <= now } ?? false }
}
