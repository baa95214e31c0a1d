import PressureCore

/// Lines shared by the clients that keep up: a line for a client whose queue is empty is kept once, here,
/// for every such client, and the loop writes each of them straight from here (``drain(_:_:)``). A client
/// leaves the shared lines, its share copied into its queue (``unshare(_:upTo:)``), when a line is not for
/// it, when its share would pass its queue's touch limit (so every limit of ``ClientQueue`` applies), before
/// its last lines, and when the socket did not take all of its share.
///
/// Why: otherwise each line is copied into every client's queue and then out to each socket; so it is
/// copied once. The kernel's work per `send` stays, one a client a frame (`docs/performance.md` says why
/// neither `io_uring` nor writer threads are worth it).
struct SharedLines: Sendable {
    /// A client does not start sharing lines beyond this offset (the bytes are bounded though a client
    /// sharing them is never drained, as in tests).
    static let limit = 64 * 1024

    /// The lines, from the oldest any client still shares.
    private(set) var bytes: [UInt8] = []
    /// Clients whose pending bytes are in ``bytes`` (their ``ClientTable/Client/sharedFrom`` is set).
    private(set) var sharers = 0

    init() {
        bytes.reserveCapacity(16 * 1024)
    }

    /// Bytes waiting in the share of a client that shares from `from` (nil: it does not share).
    func pendingCount(from: Int?) -> Int { from.map { bytes.count - $0 } ?? 0 }

    /// Lines about to go to the clients join the shared lines (which start again when nobody has bytes in
    /// them) before anyone shares them, so a client can share from any of them; returns where they start.
    mutating func begin(_ lines: UnsafeRawBufferPointer) -> Int {
        if sharers == 0 && !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
        let base = bytes.count
        bytes.append(contentsOf: lines)
        return base
    }

    /// The lines begun at `base` went to every client they are for: if nobody shares any of them, they
    /// are taken out again.
    mutating func end(from base: Int) {
        if sharers == 0 { bytes.removeSubrange(base...) }
    }

    /// Clients that began to share lines in a pass over the table, each at a run's start
    /// (``ClientTable/Client/sharedFrom`` set there).
    mutating func add(sharers count: Int) { sharers += count }

    /// Whether the line at `offset` goes to the client in its share: it shares already, or starts to (its
    /// queue is empty). Its queue takes it otherwise.
    @inline(__always)  // for every line and client, as ClientTable.Client.isRecipient
    mutating func share(_ client: inout ClientTable.Client, _ count: Int, from offset: Int) -> Bool {
        if client.sharedFrom != nil { return true }
        guard client.canStartSharing(count, at: offset) else { return false }
        client.sharedFrom = offset
        sharers += 1
        return true
    }

    /// The client's share is copied into its queue: it no longer shares. `end`: where its share ends in
    /// ``bytes`` (lines are there before they are anyone's, ``begin(_:)``); nil: at the end.
    mutating func unshare(_ client: inout ClientTable.Client, upTo end: Int? = nil) {
        guard let from = client.sharedFrom else { return }
        client.sharedFrom = nil
        sharers -= 1
        let upTo = end ?? bytes.count
        bytes.withUnsafeBytes { client.queue.appendFinal(UnsafeRawBufferPointer(rebasing: $0[from..<upTo])) }
    }

    /// Writes the client's share; what the socket did not take goes to its queue.
    mutating func drain(_ client: inout ClientTable.Client, _ write: (UnsafeRawBufferPointer) -> Int) {
        guard let from = client.sharedFrom else { return }
        let written = bytes.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[from...])) }
        client.sharedFrom = from + max(0, min(written, bytes.count - from))
        unshare(&client)
    }

    /// A client that shared from `from` (nil: it did not share) left the table.
    mutating func forget(sharingFrom from: Int?) {
        if from != nil { sharers -= 1 }
    }
}
