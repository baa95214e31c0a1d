import PressureCore

/// Lines shared by the clients that keep up: a line sent to a client whose queue is empty is not copied
/// into its queue but kept once, in ``ClientTable/shared``, for every such client; the loop writes each of
/// them straight from there (``drainShared(_:_:)``). A client leaves the shared lines (its share is
/// copied into its queue, ``unshare(_:)``) when a line is not for it, when its share would pass its
/// queue's touch limit (so coalescing and every limit of ``ClientQueue`` apply as before), before its last
/// lines, and when the socket did not take all of its share (the rest goes to its queue).
///
/// Why: with every client reading, a frame was copied into each of their queues, line by line, and then
/// out to each socket; now it is copied once, and each socket's `send` takes it from the same bytes. The
/// loop still makes one `send` a client a frame, which is the floor's count too: measured (issue 14), a C
/// loop of 64 sends of a 1.5 KB frame took 1.4-1.7 µs a client on this 2-core machine, and `io_uring` (one
/// `io_uring_enter` for the 64) 1.2-1.3 µs -- the kernel's work per send (an skb allocated, filled,
/// queued, the reader woken) stays -- which is not worth a second I/O path and its system library; writer
/// threads would add a thread hop per frame (100-300 µs under emulation) on two cores the readers share.
extension ClientTable {
    /// A client does not start sharing lines beyond this offset (``shared`` is bounded though a client
    /// sharing them is never drained, as in tests).
    static let sharedLimit = 64 * 1024

    /// Bytes waiting for the client at index `c`: its queue's and its share of ``shared``.
    func pendingCount(_ c: Int) -> Int {
        clients[c].queue.pendingCount + (clients[c].sharedFrom.map { shared.count - $0 } ?? 0)
    }

    /// Before a line is sent: the shared lines start again when nobody has bytes in them.
    mutating func startSharedLine() {
        if sharers == 0 && !shared.isEmpty { shared.removeAll(keepingCapacity: true) }
    }

    /// Whether the line at `offset` of ``shared`` goes to the client there: it shares already, or starts
    /// to (its queue is empty). Its queue takes it otherwise.
    @inline(__always)  // for every line and client, as ClientTable.isRecipient
    mutating func shares(_ c: Int, _ count: Int, from offset: Int) -> Bool {
        if clients[c].sharedFrom != nil { return true }
        guard clients[c].canStartSharing(count, at: offset) else { return false }
        clients[c].sharedFrom = offset
        sharers += 1
        return true
    }

    /// A client that does not take the line at `offset` in its share: it leaves the shared lines (what it
    /// shared before `offset` goes to its queue); then, if the line is for it (`gets`), it starts sharing
    /// from the line or is queued it. Returns whether the line is in its share now. The second pass of
    /// ``send(_:to:_:)`` and of ``sendRun(_:)``.
    mutating func takeOutsideShare(
        _ c: Int, _ line: UnsafeRawBufferPointer, _ kind: Line.Kind, gets: Bool, at offset: Int,
        _ sent: inout Sent, _ work: inout Hub.Work
    ) -> Bool {
        if clients[c].sharedFrom != nil { unshare(c, upTo: offset) }
        guard gets else { return false }
        sent.clients += 1
        if shares(c, line.count, from: offset) {
            noteQueued(c, kind, &work)
            return true
        }
        if !enqueue(c, line, kind, &work) { sent.closedAny = true }
        return false
    }

    /// The client's share is copied into its queue: it no longer shares. `end`: where its share ends in
    /// ``shared`` (a run's lines are there before they are anyone's, ``sendRun(_:)``); nil: at the end.
    mutating func unshare(_ c: Int, upTo end: Int? = nil) {
        guard let from = clients[c].sharedFrom else { return }
        clients[c].sharedFrom = nil
        sharers -= 1
        var bytes: [UInt8] = []
        swap(&bytes, &shared)
        defer { swap(&bytes, &shared) }
        let upTo = end ?? bytes.count
        bytes.withUnsafeBytes { clients[c].queue.appendFinal(UnsafeRawBufferPointer(rebasing: $0[from..<upTo])) }
    }

    /// Writes the client's share; what the socket did not take goes to its queue.
    mutating func drainShared(_ c: Int, _ write: (UnsafeRawBufferPointer) -> Int) {
        guard let from = clients[c].sharedFrom else { return }
        let written = shared.withUnsafeBytes { write(UnsafeRawBufferPointer(rebasing: $0[from...])) }
        let rest = from + max(0, min(written, shared.count - from))
        clients[c].sharedFrom = rest
        unshare(c)
    }
}

extension ClientTable.Client {
    /// Whether it shares lines and its share, ending at `end` in ``ClientTable/shared``, can take `count`
    /// more bytes: it stays below its queue's touch limit, where the queue would take a `moved` as it is.
    @inline(__always)  // for every line and client, as isRecipient
    func hasRoomInShare(endingAt end: Int, for count: Int) -> Bool {
        guard let from = sharedFrom else { return false }
        return end - from + count <= queue.touchLimit
    }

    /// Whether it can start sharing lines at `offset` of ``ClientTable/shared`` with `count` bytes: its
    /// queue is empty (nothing of it comes before them), the shared lines are not past their bound, and
    /// the bytes are within its touch limit.
    @inline(__always)  // for every line and client, as isRecipient
    func canStartSharing(_ count: Int, at offset: Int) -> Bool {
        queue.isEmpty && offset <= ClientTable.sharedLimit && count <= queue.touchLimit
    }
}
