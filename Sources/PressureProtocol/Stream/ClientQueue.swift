/// The bytes waiting to be written to one client, bounded so a slow or stuck client costs a known amount
/// of memory and never delays anyone else, yet what it gets is whole: every line complete, every contact
/// that begins also ending, every contact's latest state. This is the protocol's rule (`docs/protocol.md`,
/// "Back-pressure"), so every server of it (the daemon, the web bridge) keeps it with this one queue:
/// - past ``touchLimit``, a contact's `moved`, `ended` or `cancelled` replaces its queued `moved`; a `moved`
///   that cannot (``maximumCoalesced``, no room) is left out, counted (``takeLosses()``); nothing else is;
/// - past ``capacity`` minus ``reserve``, a line that must arrive is an ``Outcome/overflow``: the owner
///   closes the client, saying so with ``appendFinal(_:)``, which has the reserve to itself. Nothing here
///   allocates once the storage has grown to what the client's backlog needs.
public struct ClientQueue: Sendable {
    public enum Outcome: Equatable, Sendable {
        case queued
        /// A `moved` line was queued in place of the contact's older one, which was removed (a loss).
        case coalesced
        /// A `moved` line was left out (a loss).
        case dropped
        /// A line that must arrive did not fit: the client cannot keep up.
        case overflow
    }

    /// What a line is, as far as coalescing goes.
    public enum Kind: Equatable, Sendable {
        /// A line that must arrive, and can replace nothing: replies, errors, notices, gestures, device
        /// events, `began`.
        case other
        /// A contact's `moved`: coalesced past the touch limit.
        case moved(device: Int, contact: UInt64)
        /// A contact's `ended` or `cancelled`: it must arrive, and past the touch limit it takes the place of
        /// the contact's queued `moved`.
        case end(device: Int, contact: UInt64)
    }

    /// At most this many contacts have a `moved` coalesced at once (more fingers than a hand has).
    public static let maximumCoalesced = 32

    public let capacity: Int
    public let touchLimit: Int
    /// Room kept for the lines that close a connection (``appendFinal(_:)``): 4 KiB, less for a small queue.
    public let reserve: Int

    /// A `moved` line queued past the touch limit, that a newer one of its contact may replace. Where it
    /// starts is a stream offset (bytes ever queued before it), which compaction does not change.
    private struct Coalescable: Sendable {
        var device: Int
        var contact: UInt64
        var start: Int
        var count: Int
    }

    private var storage: [UInt8] = []
    private var head = 0
    /// The stream offset of `storage[0]`.
    private var base = 0
    private var coalescable: [Coalescable] = []
    private var losses: [DroppedTouches.Contact] = []
    private var lossesTruncated = false
    /// Touch events left out since the last ``takeLosses()``.
    public private(set) var lostTouches = 0

    /// `reserve`: room kept for the closing lines (by default 4 KiB, less for a small queue).
    public init(capacity: Int = 256 * 1024, touchLimit: Int? = nil, reserve: Int? = nil) {
        self.capacity = capacity
        self.reserve = min(reserve ?? min(4096, capacity / 8), capacity)
        self.touchLimit = min(touchLimit ?? capacity / 2, capacity - self.reserve)
        storage.reserveCapacity(min(capacity, 16 * 1024))
        coalescable.reserveCapacity(Self.maximumCoalesced)
        losses.reserveCapacity(DroppedTouches.maximumListed)
    }

    /// Bytes not yet written.
    public var pendingCount: Int { storage.count - head }
    public var isEmpty: Bool { head == storage.count }

    /// Appends one complete line (its `\n` included).
    public mutating func append(_ line: ArraySlice<UInt8>, _ kind: Kind) -> Outcome {
        line.withUnsafeBytes { append($0, kind) }
    }

    /// Appends one complete line (its `\n` included) from bytes the caller holds: the fan-out queues one
    /// encoded line for every client through one pointer, where a slice of the line's array would be
    /// retained and released again for each of them, on the path that runs once a line and client.
    public mutating func append(_ line: UnsafeRawBufferPointer, _ kind: Kind) -> Outcome {
        switch kind {
        case .other:
            return appendWhole(line)
        case .moved(let device, let contact):
            let past = pendingCount + line.count > touchLimit
            if !past && coalescable.isEmpty {
                // The common case: room, and nothing coalesced (the touch limit leaves room for the line).
                put(line)
                return .queued
            }
            let older = queuedMoved(device, contact)
            if !past {
                // Room again: this one goes out as it is, and is the one a later `moved` replaces.
                put(line)
                if let k = older {
                    coalescable[k].start = base + storage.count - line.count
                    coalescable[k].count = line.count
                }
                return .queued
            }
            var outcome = Outcome.queued
            if let k = older {
                remove(k)
                lose(device, contact)
                outcome = .coalesced
            }
            guard pendingCount + line.count <= capacity - reserve, hasRoomToCoalesce() else {
                lose(device, contact)
                return .dropped
            }
            put(line)
            coalescable.append(Coalescable(
                device: device, contact: contact, start: base + storage.count - line.count, count: line.count))
            return outcome
        case .end(let device, let contact):
            if let k = queuedMoved(device, contact) {
                if pendingCount + line.count > touchLimit {
                    remove(k)
                    lose(device, contact)
                } else {
                    coalescable.remove(at: k)
                }
            }
            return appendWhole(line)
        }
    }

    /// Appends a line whatever the limits: the last lines of a connection being closed.
    public mutating func appendFinal(_ line: ArraySlice<UInt8>) {
        line.withUnsafeBytes { put($0) }
    }

    /// Appends bytes whatever the limits: the last lines of a connection, or lines a client shared with
    /// others (``ClientTable``'s shared lines, all queued below the touch limit).
    public mutating func appendFinal(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        put(bytes)
    }

    /// What was left out since the last call, nil when nothing was; the count starts again.
    public mutating func takeLosses() -> DroppedTouches? {
        guard lostTouches > 0 else { return nil }
        defer {
            lostTouches = 0
            losses.removeAll(keepingCapacity: true)
            lossesTruncated = false
        }
        return DroppedTouches(touches: lostTouches, contacts: losses, truncated: lossesTruncated)
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
            base += storage.count
            storage.removeAll(keepingCapacity: true)
            head = 0
            coalescable.removeAll(keepingCapacity: true)
        } else if head > storage.count / 2 {
            compact()
        }
    }

    // MARK: Inside

    private mutating func appendWhole(_ line: UnsafeRawBufferPointer) -> Outcome {
        guard pendingCount + line.count <= capacity - reserve else { return .overflow }
        put(line)
        return .queued
    }

    private mutating func put(_ line: UnsafeRawBufferPointer) {
        if head > 0 && storage.count + line.count > storage.capacity { compact() }
        storage.append(contentsOf: line)
    }

    private mutating func compact() {
        storage.removeSubrange(0..<head)
        base += head
        head = 0
    }

    /// The index of the contact's `moved` still queued and not begun to be written. Entries whose line
    /// has been (partly) written are forgotten on the way.
    private mutating func queuedMoved(_ device: Int, _ contact: UInt64) -> Int? {
        var k = 0
        while k < coalescable.count {
            if coalescable[k].start < base + head {
                coalescable.remove(at: k)
                continue
            }
            if coalescable[k].device == device && coalescable[k].contact == contact { return k }
            k += 1
        }
        return nil
    }

    /// Whether another contact can have a `moved` coalesced (written lines no longer count).
    private mutating func hasRoomToCoalesce() -> Bool {
        if coalescable.count < Self.maximumCoalesced { return true }
        let written = base + head
        coalescable.removeAll { $0.start < written }
        return coalescable.count < Self.maximumCoalesced
    }

    /// Removes a queued `moved` line; the lines after it close up.
    private mutating func remove(_ k: Int) {
        let gone = coalescable.remove(at: k)
        let from = gone.start - base
        storage.removeSubrange(from..<(from + gone.count))
        for j in coalescable.indices where coalescable[j].start > gone.start { coalescable[j].start -= gone.count }
    }

    private mutating func lose(_ device: Int, _ contact: UInt64) {
        lostTouches += 1
        if let i = losses.firstIndex(where: { $0.device == device && $0.contact == contact }) {
            losses[i].moved += 1
        } else if losses.count < DroppedTouches.maximumListed {
            losses.append(DroppedTouches.Contact(device: device, contact: contact, moved: 1))
        } else {
            lossesTruncated = true
        }
    }
}
