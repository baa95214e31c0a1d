import PressureCommandLine
import PressureSystem
import PressureWebBridge

/// Each page's own connection to the daemon: its lines become text frames, its end closes the page.
extension WebBridge {
    func daemonReady(_ id: Int, _ events: UInt32) {
        guard let c = connections[id], let link = c.link, let daemon = link.daemon else { return }
        if events & EventLoop.writable != 0 { flushDaemon(c, link) }
        guard events & (EventLoop.readable | EventLoop.hangup) != 0 else { return }
        let now = monotonicMicroseconds()
        var gone = false
        while link.daemon != nil {
            var outcome = StreamSocket.ReadOutcome.wouldBlock
            let fits = link.daemonLines.receive(upTo: Self.daemonReadChunk, { buffer in
                outcome = daemon.read(into: buffer)
                if case .data(let n) = outcome { return n }
                return 0
            }) { line in
                if line.starts(with: Self.byePrefix) { link.sawBye = true }
                perform(link.session.handle(.daemonLine(line), now: now), on: c, link)
            }
            guard case .data(let n) = outcome else {
                gone = outcome != .wouldBlock  // end of stream or a failure
                break
            }
            if !fits {
                Log.error("\(c.peer): pressured sent a line over 1 MiB")
                gone = true
                break
            }
            if n < Self.daemonReadChunk { break }  // drained: no read just to hear EAGAIN
        }
        if gone, link.daemon != nil {
            closeDaemon(c, link)
            if !link.sawBye { Log.warning("\(c.peer): pressured closed the page's connection") }
            perform(link.session.handle(.daemonGone(failed: !link.sawBye), now: now), on: c, link)
        }
        flush(id)
    }

    /// Writes the page's requests that wait for the daemon; EPOLLOUT only while some do.
    func flushDaemon(_ c: BrowserConnection, _ link: WebSocketLink) {
        guard let daemon = link.daemon else { return }
        if !link.toDaemon.isEmpty {
            let n = link.toDaemon.withUnsafeBytes { daemon.write($0) }
            if n > 0 { link.toDaemon.removeFirst(n) }
            if n < 0 {
                closeDaemon(c, link)
                perform(link.session.handle(.daemonGone(failed: true), now: monotonicMicroseconds()), on: c, link)
                return
            }
        }
        let pending = !link.toDaemon.isEmpty
        if pending != daemon.waitsForWritable {
            daemon.waitsForWritable = pending
            try? loop.modify(daemon.fd, token: Token(.daemon, c.id),
                             events: pending ? EventLoop.readable | EventLoop.writable : EventLoop.readable)
        }
    }

    /// Bytes asked of one read of the daemon's lines (straight into the page's line buffer).
    static let daemonReadChunk = 16 * 1024

    static let byePrefix = Array(#"{"type":"bye""#.utf8)
}
