/// A point on the input clock, in microseconds.
///
/// The core never reads a wall clock: every time it sees comes from an event's timestamp or from a
/// deadline handed back to it as a tick, so a replay of the same capture is deterministic.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Microseconds since the clock's epoch (the kernel's event clock, or a capture's own zero).
    public var microseconds: Int64

    @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }

    @inlinable public init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds &* 1_000_000 &+ microseconds
    }

    @inlinable public static func < (a: Timestamp, b: Timestamp) -> Bool { a.microseconds < b.microseconds }

    @inlinable public static func + (t: Timestamp, d: Duration) -> Timestamp {
        Timestamp(microseconds: t.microseconds &+ d.microseconds)
    }

    @inlinable public static func - (a: Timestamp, b: Timestamp) -> Duration {
        Duration(microseconds: a.microseconds &- b.microseconds)
    }

    public var description: String { WireFormat.secondsString(self) }
}

extension Timestamp {
    /// A span of input-clock time, in microseconds.
    public struct Duration: Hashable, Comparable, Sendable {
        public var microseconds: Int64
        @inlinable public init(microseconds: Int64) { self.microseconds = microseconds }
        @inlinable public static func milliseconds(_ ms: Int64) -> Duration { Duration(microseconds: ms * 1000) }
        @inlinable public static func < (a: Duration, b: Duration) -> Bool { a.microseconds < b.microseconds }
    }
}
