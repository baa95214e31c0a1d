import Glibc
import PressureCommandLine
import PressureSystem
import PressureWebBridge
import PressureWebSocket

/// Browser connections: accepting, the request head, answers and upgrades, frames both ways.
extension WebBridge {
    func accept(from index: Int) {
        guard index < listeners.count else { return }
        accepting: while !limits.rest.isResting {
            switch listeners[index].accept(with: limits.acceptGuard, refusal: ListenerLimits.descriptorRefusal) {
            case .nonePending:
                break accepting
            case .accepted(let (socket, peer)):
                admit(socket, peer: peer)
            case .refused(let error):
                atDescriptorLimit(error, refused: true, "browsers are answered 503 and closed until a connection closes")
            case .unavailable(let error):
                restListeners()
                atDescriptorLimit(error, refused: false, "the listeners rest \(ListenerRest.period / 1_000_000) s, or until a connection closes")
            }
        }
    }

    /// Serves a newcomer, or closes it past ``maximumConnections``.
    private func admit(_ socket: StreamSocket, peer: String) {
        guard connections.count < Self.maximumConnections else {
            Log.warning("\(peer): refused, \(Self.maximumConnections) connections already open")
            return  // the socket closes as it goes out of scope
        }
        let id = nextID
        nextID += 1
        let c = BrowserConnection(id: id, socket: socket, peer: peer, now: monotonicMicroseconds())
        do { try loop.add(socket.fd, token: Token(.browser, id)) } catch {
            Log.error("\(peer): \(error)")
            return
        }
        connections[id] = c
        Log.debug("\(peer): connected (connection \(id))")
    }

    func browserReady(_ id: Int, _ events: UInt32) {
        guard let c = connections[id] else { return }
        if events & EventLoop.writable != 0 { flush(id) }
        guard connections[id] != nil, events & (EventLoop.readable | EventLoop.hangup) != 0 else { return }
        let now = monotonicMicroseconds()
        while connections[id] != nil {
            let outcome = readBuffer.withUnsafeMutableBytes { c.socket.read(into: $0) }
            guard case .data(let n) = outcome else {
                if outcome != .wouldBlock { browserClosed(c, now: now) }  // end of stream or a failure
                break
            }
            readBuffer.withUnsafeBytes { received(c, UnsafeRawBufferPointer(rebasing: $0[0..<n]), now: now) }
            if n < readBuffer.count { break }
        }
        flush(id)
    }

    func browserClosed(_ c: BrowserConnection, now: Int64) {
        if let link = c.link {
            perform(link.session.handle(.browserGone, now: now), on: c, link)
        }
        finish(c.id)
    }

    func received(_ c: BrowserConnection, _ bytes: UnsafeRawBufferPointer, now: Int64) {
        switch c.phase {
        case .request(var buffer, let deadline):
            buffer.append(contentsOf: bytes)
            let parsed: Result<(head: HTTPRequestHead, length: Int)?, HTTPRequestError> = buffer.withUnsafeBufferPointer { b in
                Result { () throws(HTTPRequestError) in try HTTPRequestHead.parse(b, limit: BrowserConnection.headLimit) }
            }
            switch parsed {
            case .failure(let e):
                Log.info("\(c.peer): \(e)")
                answer(c, .plain(e.status, e.description), includeBody: true, now: now)
            case .success(nil):
                c.phase = .request(buffer: buffer, deadline: deadline)
            case .success(let (head, length)?):
                route(c, head, rest: Array(buffer[length...]), now: now)
            }
        case .answering:
            break  // one request per connection: anything more is not read
        case .webSocket(let link):
            link.decoder.append(bytes)
            decodeFrames(c, link, now: now)
        }
    }

    func route(_ c: BrowserConnection, _ head: HTTPRequestHead, rest: [UInt8], now: Int64) {
        switch router.decide(head) {
        case .respond(let response, let includeBody, let log):
            if let log { Log.warning("\(c.peer): refused \(head.method) \(head.path.prefix(80)) with \(response.status): \(log)") }
            answer(c, response, includeBody: includeBody, now: now)
        case .upgrade(let response, let grant):
            let daemon: StreamSocket
            do { daemon = try StreamSocket.connectUnix(configuration.daemonSocket) } catch {
                if AcceptFailure(errno: error.errno) == .outOfDescriptors {
                    atDescriptorLimit(error, refused: true, "pages are answered 503 until a connection closes")
                    answer(c, ListenerLimits.daemonDescriptorRefusal, includeBody: true, now: now)
                    return
                }
                Log.warning("\(c.peer): cannot reach pressured (\(error)): answered 503")
                answer(c, .plain(503, "pressured is not running"), includeBody: true, now: now)
                return
            }
            do { try loop.add(daemon.fd, token: Token(.daemon, c.id)) } catch {
                Log.error("\(c.peer): \(error)")
                answer(c, .plain(500, "cannot watch the daemon connection"), includeBody: true, now: now)
                return
            }
            let session = WebSocketSession(
                filter: RequestFilter(grant: grant),
                queueCapacity: configuration.queueCapacity, pingIntervalSeconds: configuration.pingIntervalSeconds, now: now)
            let link = WebSocketLink(session: session, maximumMessage: configuration.maximumMessage, daemon: daemon, origin: grant.origin)
            c.phase = .webSocket(link)
            c.head = response.serialized()
            pageServed()
            Log.info("\(c.peer): page from \(grant.origin) connected (connection \(c.id)\(grant.app.map { ", acting as \($0)" } ?? "")"
                + "\(grant.mayControl ? ", control forwarded" : ""))")
            updateStatus()
            if !rest.isEmpty {
                rest.withUnsafeBytes { link.decoder.append($0) }
                decodeFrames(c, link, now: now)
            }
        }
    }

    /// Answers with `response` and closes once it is written.
    func answer(_ c: BrowserConnection, _ response: HTTPResponse, includeBody: Bool, now: Int64) {
        c.phase = .answering(deadline: now + BrowserConnection.answerTimeout)
        c.head = response.serialized(includeBody: includeBody)
        c.headWritten = 0
    }

    func decodeFrames(_ c: BrowserConnection, _ link: WebSocketLink, now: Int64) {
        while !link.session.isClosed {
            let event: WebSocketSession.Event
            do {
                guard let frame = try link.decoder.next() else { return }
                guard let message = try link.assembler.receive(frame) else { continue }
                event = .message(message)
            } catch {
                event = .protocolError(error)
            }
            perform(link.session.handle(event, now: now), on: c, link)
            if case .protocolError = event { return }
        }
    }

    func perform(_ actions: [WebSocketSession.Action], on c: BrowserConnection, _ link: WebSocketLink) {
        for a in actions {
            switch a {
            case .forward(let line):
                guard link.daemon != nil else { continue }
                link.toDaemon.append(contentsOf: line)
                flushDaemon(c, link)
                if link.toDaemon.count > WebSocketLink.toDaemonLimit {
                    perform(link.session.handle(.requestsBacklogged, now: monotonicMicroseconds()), on: c, link)
                }
            case .closeDaemon:
                closeDaemon(c, link)
            case .log(let level, let message):
                let line = "\(c.peer): \(message)"
                switch level {
                case .info: Log.info(line)
                case .warning: Log.warning(line)
                case .debug: Log.debug(line)
                }
            }
        }
    }

    func closeDaemon(_ c: BrowserConnection, _ link: WebSocketLink) {
        guard let d = link.daemon else { return }
        loop.remove(d.fd)
        link.daemon = nil
        link.toDaemon = []
        resumeListeners()  // a descriptor freed
    }

    /// Writes what is waiting for the browser; closes a connection that is finished or whose peer is gone.
    func flush(_ id: Int) {
        guard let c = connections[id] else { return }
        var gone = false
        if c.headWritten < c.head.count {
            let n = c.head.withUnsafeBytes { c.socket.write(UnsafeRawBufferPointer(rebasing: $0[c.headWritten...])) }
            if n < 0 { gone = true } else { c.headWritten += n }
            if c.headWritten == c.head.count {
                c.head = []
                c.headWritten = 0
            }
        }
        if !gone, c.headWritten == 0, let link = c.link {
            let closing = link.session.state != .open
            link.session.queue.drain(closing: closing) { bytes in
                let n = c.socket.write(bytes)
                if n < 0 { gone = true }
                return max(0, n)
            }
        }
        if gone {
            browserClosed(c, now: monotonicMicroseconds())
            return
        }
        if c.isFinished {
            finish(id)
            return
        }
        let pending = c.hasPendingBytes
        if pending != c.socket.waitsForWritable {
            c.socket.waitsForWritable = pending
            try? loop.modify(c.socket.fd, token: Token(.browser, id),
                             events: pending ? EventLoop.readable | EventLoop.writable : EventLoop.readable)
        }
    }

    /// Closes the browser's socket (and the daemon link if still open).
    func finish(_ id: Int) {
        guard let c = connections.removeValue(forKey: id) else { return }
        loop.remove(c.socket.fd)
        defer { resumeListeners() }  // a descriptor freed (the socket closes as `c` goes): a resting listener tries again
        if let link = c.link {
            closeDaemon(c, link)
            let code = link.session.closeCode.map { " (close \($0))" } ?? ""
            Log.info("\(c.peer): page from \(link.origin) disconnected\(code)")
            updateStatus()
        } else {
            Log.debug("\(c.peer): closed (connection \(id))")
        }
    }
}
