/// The bytes waiting to be written to one client, bounded so a slow or stuck client costs a known amount
/// of memory and never delays anyone else.
///
/// Two limits: past ``touchLimit`` droppable lines (touch events) are refused and counted, so a client
/// that reads slowly keeps getting every gesture; past ``capacity`` nothing fits any more, and the owner
/// disconnects the client rather than drop a gesture silently. That is the protocol's back-pressure rule
/// (`docs/protocol.md`, `dropped` and `too-slow`), so it lives with the protocol: every server of it keeps
/// the rule with this one queue, the daemon for its clients and the web bridge for its pages.
public struct ClientQueue: Sendable {
    public enum Outcome: Equatable, Sendable {
        case queued
        /// A droppable line was refused (counted in ``droppedTouches``).
        case dropped
        /// A line that must not be dropped did not fit: the client cannot keep up.
        case overflow
    }

    public let capacity: Int
    public let touchLimit: Int
    /// Touch lines refused since the last ``takeDroppedCount()``.
    public private(set) var droppedTouches = 0

    private var storage: [UInt8] = []
    private var head = 0

    public init(capacity: Int = 256 * 1024, touchLimit: Int? = nil) {
        self.capacity = capacity
        self.touchLimit = touchLimit ?? capacity / 2
        storage.reserveCapacity(min(capacity, 16 * 1024))
    }

    /// Bytes not yet written.
    public var pendingCount: Int { storage.count - head }
    public var isEmpty: Bool { head == storage.count }

    /// Appends one complete line.
    public mutating func append(_ line: ArraySlice<UInt8>, droppable: Bool) -> Outcome {
        let after = pendingCount + line.count
        if droppable && after > touchLimit {
            droppedTouches += 1
            return .dropped
        }
        if after > capacity { return .overflow }
        if head > 0 && storage.count + line.count > storage.capacity { compact() }
        storage.append(contentsOf: line)
        return .queued
    }

    /// Returns and resets the count of dropped touch lines.
    public mutating func takeDroppedCount() -> Int {
        defer { droppedTouches = 0 }
        return droppedTouches
    }

    /// Calls `body` with the pending bytes; it returns how many it wrote, which are then consumed.
    public mutating func drain(_ body: (UnsafeRawBufferPointer) -> Int) {
        guard !isEmpty else { return }
        let written = storage.withUnsafeBytes { all in
            body(UnsafeRawBufferPointer(rebasing: all[head...]))
        }
        consume(max(0, min(written, pendingCount)))
    }

    public mutating func consume(_ n: Int) {
        head += n
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head > storage.count / 2 {
            compact()
        }
    }

    private mutating func compact() {
        storage.removeSubrange(0..<head)
        head = 0
    }
}
