import PressureHub

/// `--exit-when-done`, once the replay has ended: the daemon stops only when every client has read what
/// it was sent, its queue written and its socket's bytes read (``ClientConnection/unreadByClient``), so a
/// request a client sent before it read the end of the replay (a `ping` right after the `subscribe`
/// reply) is read, answered and written before `bye`. Meanwhile the loop serves as ever. A client whose
/// unread bytes stay the same for ``ReplayRun/stallLimit`` has stopped reading and is not waited for any
/// longer: the rule the replay's pacing and the last words at shutdown follow.
struct ClientCatchUp {
    /// How often (µs) the loop looks again while a client is still reading: a socket read to the end wakes
    /// nobody (epoll tells writable, not read).
    static let checkInterval: Int64 = 2_000

    /// Each client still reading: the bytes it had not read, and since when that count stood.
    private var unread: [Int: (bytes: Int, since: Int64)] = [:]
    /// Whether the clients were looked at yet.
    private var looked = false

    /// Looks at every client at `now` (monotonic µs): which are still reading, and since when what they
    /// have not read stands still.
    mutating func look(now: Int64, hub: borrowing Hub, clients: ClientConnections) {
        var waiting: [Int: (bytes: Int, since: Int64)] = [:]
        for (id, c) in clients {
            let bytes = hub.backlog(client: id) + (c.unreadByClient ?? 0)
            guard bytes > 0 else { continue }
            let since = unread[id].flatMap { $0.bytes == bytes ? $0.since : nil } ?? now
            guard now - since < ReplayRun.stallLimit else { continue }
            waiting[id] = (bytes, since)
        }
        unread = waiting
        looked = true
    }

    /// Whether, at the last look, every client had read everything or stopped reading.
    var allCaughtUp: Bool { looked && unread.isEmpty }
}
