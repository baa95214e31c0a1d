import Glibc
import PressureCommandLine
import PressureCore

/// Client sockets: reading requests, writing queued bytes, disconnecting (accepting: `Daemon+Accept.swift`).
extension Daemon {
    func clientReady(_ id: Int, _ events: UInt32) {
        guard let c = clients[id] else { return }
        if events & EventLoop.writable != 0 { flush(client: id) }
        guard events & (EventLoop.readable | EventLoop.hangup) != 0 else { return }
        let now = Timestamp(microseconds: monotonicMicroseconds())
        let outcome = c.read { line in self.hub.receive(client: id, line: line, now: now) }
        switch outcome {
        case .open:
            break
        case .closed:
            close(client: id)
        case .lineTooLong:
            hub.lineTooLong(client: id, limit: ClientConnection.maximumLine)
        }
        startReplayIfSubscribed()
    }

    /// Writes what is queued; a client that cannot take it all now is woken again when its socket drains.
    func flush(client id: Int) {
        guard let c = clients[id] else { return }
        var gone = false
        hub.drain(client: id) { bytes in
            let n = c.write(bytes)
            if n < 0 { gone = true }
            return max(0, n)
        }
        if gone {
            close(client: id)
            return
        }
        // Ask for EPOLLOUT only while bytes wait, and touch epoll only when that changes.
        let pending = hub.hasPendingBytes(client: id)
        if pending != c.waitsForWritable {
            c.waitsForWritable = pending
            let events = pending ? EventLoop.readable | EventLoop.writable : EventLoop.readable
            try? loop.modify(c.fd, token: Token.client | UInt64(id), events: events)
        }
    }

    /// The hub gave up on a client: one best-effort last line, then close.
    func drop(client id: Int, finalLine: [UInt8]) {
        if let c = clients[id], !finalLine.isEmpty {
            finalLine.withUnsafeBytes { _ = c.write($0) }
        }
        close(client: id)
    }

    func close(client id: Int) {
        guard let c = clients.removeValue(forKey: id) else { return }
        loop.remove(c.fd)
        hub.disconnected(id)
        clientLeft()
    }
}
