import Glibc

/// The daemon stopping: every client is given up to ``limit`` to take what is queued for it (the ends of
/// its contacts and peeks, then `bye`), all clients at once, so that a few that stopped reading cost the
/// stop one second, not one each. Writes go through ``ClientConnection/write(_:)``, whole lines, so a
/// client closed before it took everything still reads a stream that ends at a line boundary, and
/// `bye` only where it fitted (`docs/protocol.md`).
enum LastWords {
    /// How long (µs) the clients are given, together.
    static let limit: Int64 = 1_000_000

    /// Writes until every client has taken its bytes, is gone, or ``limit`` has passed. `flush` writes
    /// what a client's socket takes now and says whether bytes still wait for it (``ClientsHandler/flush(client:hub:)``).
    static func write(_ clients: ClientConnections, flush: (Int) -> Bool) {
        let deadline = monotonicMicroseconds() + limit
        var waiting = Array(clients)
        while !waiting.isEmpty {
            waiting = waiting.filter { id, _ in flush(id) }
            guard !waiting.isEmpty, deadline > monotonicMicroseconds() else { return }
            var fds = waiting.map { pollfd(fd: $0.1.fd, events: Int16(POLLOUT), revents: 0) }
            // Woken when one of them can take more (or the time is up); EINTR polls again (the funnel
            // retries) for what is left of the time, and a failure just looks again.
            _ = try? syscall("poll", "clients") {
                let left = max(0, deadline - monotonicMicroseconds())
                return poll(&fds, nfds_t(fds.count), Int32(min(left / 1000 + 1, Int64(Int32.max))))
            }
        }
    }
}
