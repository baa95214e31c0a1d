import Glibc
import PressureCommandLine
import PressureCore
import PressureHub

/// Client sockets: reading requests, writing queued bytes, disconnecting (accepting: `Daemon+Accept.swift`).
extension Daemon {
    func clientReady(_ id: Int, _ events: UInt32) {
        guard let c = clients[id] else { return }
        if events & EventLoop.writable != 0 { flush(client: id) }
        guard events & (EventLoop.readable | EventLoop.hangup) != 0, clients[id] != nil else { return }
        if c.inputEnded {
            // Nothing more to read; a hang-up now means the peer is gone (or stopped reading too).
            if events & EventLoop.hangup != 0 { close(client: id) }
            return
        }
        let now = Timestamp(microseconds: monotonicMicroseconds())
        let outcome = c.read { line in self.hub.receive(client: id, line: line, now: now) }
        switch outcome {
        case .open:
            break
        case .endOfInput:
            // Half-closed (`nc -N`, `socat`) or gone: what it asked is answered, then it is closed
            // (`Hub.inputEnded`); a peer that is gone makes the next write fail, which closes it too.
            c.inputEnded = true
            watch(c, id)
            hub.inputEnded(client: id)
        case .closed:
            close(client: id)
        case .lineTooLong:
            hub.lineTooLong(client: id, limit: ClientConnection.maximumLine)
            c.discardPending()
        }
        startReplayIfSubscribed()
    }

    /// Writes what is queued; a client that cannot take it all now is woken again when its socket drains.
    /// Done for every client a frame is written to, so the hub is drained and tells what is left in one
    /// call: each access to a class's stored property is an exclusivity check in the runtime.
    func flush(client id: Int) {
        guard let c = clients[id] else { return }
        var gone = false
        var took = false
        let pending = hub.drain(client: id) { bytes in
            let n = c.write(bytes)
            if n < 0 { gone = true }
            if n > 0 { took = true }
            return max(0, n)
        }
        if took { c.tookBytes = true }
        if gone {
            close(client: id)
            return
        }
        watch(c, id, pending: pending)
    }

    /// Asks epoll for what the client's socket is waited for: readable until its input ended, writable
    /// only while bytes wait (and touches epoll only when that changes).
    func watch(_ c: ClientConnection, _ id: Int) {
        watch(c, id, pending: hub.hasPendingBytes(client: id))
    }

    private func watch(_ c: ClientConnection, _ id: Int, pending: Bool) {
        let events = (c.inputEnded ? 0 : EventLoop.readable) | (pending ? EventLoop.writable : 0)
        let current = (c.watchesReadable ? EventLoop.readable : 0) | (c.waitsForWritable ? EventLoop.writable : 0)
        guard events != current else { return }
        c.waitsForWritable = pending
        c.watchesReadable = !c.inputEnded
        try? loop.modify(c.fd, token: Token(.client, id), events: events)
    }

    func close(client id: Int) {
        guard let c = clients.removeValue(forKey: id) else { return }
        loop.remove(c.fd)
        hub.disconnected(id)
        clientLeft()
    }
}
