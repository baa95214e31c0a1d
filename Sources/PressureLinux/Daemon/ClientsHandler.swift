import Glibc
import PressureCommandLine
import PressureCore
import PressureHub

/// The daemon's clients handler: the listener and the client sockets. Reading requests into the hub,
/// writing what it queued, disconnecting; and accepting within the limits, so that nothing a client does
/// spins the loop or floods the journal: the cap (`MaxClients`: a newcomer past it is told
/// `too-many-clients` and closed), the descriptors (``UnixListener``'s reserve; where that fails too, the
/// listener rests), and log lines about clients within a budget with a summary (``ClientActivityLog``),
/// all on the loop's one timer.
///
/// The hub is the daemon's, passed in place to each call that needs it (it is non-copyable: one owner);
/// the loop is the daemon's too, which routes the `listener` and `client` tokens here.
final class ClientsHandler {
    private let loop: EventLoop
    private let listener: UnixListener
    /// The connected clients' sockets, by the hub's id.
    // `@exclusivity(unchecked)` on the state read a frame: only the loop's thread touches it, and no
    // access overlaps another (checked when compiled); see ``Daemon``'s `hub`.
    @exclusivity(unchecked) private(set) var connections = ClientConnections()
    /// Lines about clients, within a budget, and their summary.
    @exclusivity(unchecked) private var clientLog: ClientActivityLog
    /// Accept failures: one line a window, then how many more.
    @exclusivity(unchecked) private var acceptLog: LogRateLimit
    private var lastAcceptError: SystemError? = nil
    /// Whether the listener rests (is not polled) because accepting cannot go on, and until when.
    @exclusivity(unchecked) private var listenerRest = ListenerRest()

    /// Polls `listener`; `logWindowMicroseconds`: the window of the log budgets.
    init(listener: UnixListener, loop: EventLoop, logWindowMicroseconds: Int64) throws(SystemError) {
        self.loop = loop
        self.listener = listener
        clientLog = ClientActivityLog(windowMicroseconds: logWindowMicroseconds)
        acceptLog = LogRateLimit(budget: 1, windowMicroseconds: logWindowMicroseconds)
        try loop.add(listener.fd, token: Daemon.Token(.listener))
    }

    /// How many clients are connected.
    var count: Int { connections.count }

    func clientReady(_ id: Int, _ events: UInt32, hub: inout Hub) {
        guard let c = connections[id] else { return }
        if events & EventLoop.writable != 0 { flush(client: id, hub: &hub) }
        guard events & (EventLoop.readable | EventLoop.hangup) != 0, connections[id] != nil else { return }
        if c.inputEnded {
            // Nothing more to read; a hang-up now means the peer is gone (or stopped reading too).
            if events & EventLoop.hangup != 0 { close(client: id, hub: &hub) }
            return
        }
        let now = Timestamp(microseconds: monotonicMicroseconds())
        let outcome = c.read { line in hub.receive(client: id, line: line, now: now) }
        switch outcome {
        case .open:
            break
        case .endOfInput:
            // Half-closed (`nc -N`, `socat`) or gone: what it asked is answered, then it is closed
            // (`Hub.inputEnded`); a peer that is gone makes the next write fail, which closes it too.
            c.inputEnded = true
            watch(c, id, hub: hub)
            hub.inputEnded(client: id)
        case .closed:
            close(client: id, hub: &hub)
        case .lineTooLong:
            hub.lineTooLong(client: id, limit: ClientConnection.maximumLine)
            c.discardPending()
        }
    }

    /// Writes what is queued; a client that cannot take it all now is woken again when its socket drains.
    /// Done for every client a frame is written to, so the hub is drained and tells what is left in one
    /// call. Returns whether bytes still wait for the client (false once it is gone).
    @discardableResult
    func flush(client id: Int, hub: inout Hub) -> Bool {
        guard let c = connections[id] else { return false }
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
            close(client: id, hub: &hub)
            return false
        }
        watch(c, id, pending: pending)
        return pending
    }

    /// Stopping: the last words (``LastWords``), every client given its share of one second together.
    func writeLastWords(hub: inout Hub) {
        LastWords.write(connections) { flush(client: $0, hub: &hub) }
    }

    /// Asks epoll for what the client's socket is waited for: readable until its input ended, writable
    /// only while bytes wait (and touches epoll only when that changes).
    private func watch(_ c: ClientConnection, _ id: Int, hub: borrowing Hub) {
        watch(c, id, pending: hub.hasPendingBytes(client: id))
    }

    private func watch(_ c: ClientConnection, _ id: Int, pending: Bool) {
        let events = (c.inputEnded ? 0 : EventLoop.readable) | (pending ? EventLoop.writable : 0)
        let current = (c.watchesReadable ? EventLoop.readable : 0) | (c.waitsForWritable ? EventLoop.writable : 0)
        guard events != current else { return }
        c.waitsForWritable = pending
        c.watchesReadable = !c.inputEnded
        try? loop.modify(c.fd, token: Daemon.Token(.client, id), events: events)
    }

    func close(client id: Int, hub: inout Hub) {
        guard let c = connections.removeValue(forKey: id) else { return }
        loop.remove(c.fd)
        hub.disconnected(id)
        clientLeft()
    }

    /// Stopping: no newcomer after this.
    func stopListening() { listener.stop() }

    // MARK: Accepting, within the limits

    /// What a connection no descriptor is left for gets instead of `hello`, encoded once.
    static let descriptorRefusal: [UInt8] = {
        var line: [UInt8] = []
        ServerMessage.error(.tooManyClients("the daemon has no file descriptor left for another client")).append(to: &line)
        return line
    }()

    func acceptClients(hub: inout Hub) {
        accepting: while !listenerRest.isResting {
            switch listener.accept(refusingWith: Self.descriptorRefusal) {
            case .nonePending:
                break accepting
            case .accepted(let c):
                hub.activity.accepted += 1
                admit(c, hub: &hub)
            case .refused(let error):
                hub.activity.accepted += 1
                hub.activity.refused += 1
                clientLog.count(.refused, now: monotonicMicroseconds())
                acceptFailed(error, "newcomers are told too-many-clients and closed until one frees")
            case .unavailable(let error):
                restListener()
                acceptFailed(error, "the listener rests \(ListenerRest.period / 1_000_000) s, or until a client leaves")
            }
        }
        hub.activity.acceptErrors = listener.failures
    }

    /// Serves the newcomer, or turns it away at the cap; the clients already connected never notice.
    private func admit(_ c: ClientConnection, hub: inout Hub) {
        let now = monotonicMicroseconds()
        // Identity is what the kernel vouches for; a peer it says nothing of may do only what anyone may.
        let cred: PeerCredentials?
        do { cred = try c.credentials() } catch {
            logAboutClient(.warning, "a client's credentials: \(error); it may do only what anyone may")
            cred = nil
        }
        let peer = cred?.identity ?? .unknown
        guard hub.hasRoomForClient else {
            let line = hub.refuseNewcomer(peer: peer)
            line.withUnsafeBytes { _ = c.write($0) }
            hub.activity.refused += 1
            clientLog.count(.refused, now: now)
            return  // closed as `c` goes
        }
        let id = hub.connect(peer: peer)
        clientLog.count(.connected, now: now)
        connections.insert(c, id: id)
        do { try loop.add(c.fd, token: Daemon.Token(.client, id)) } catch {
            logAboutClient(.error, "client \(id): \(error)")
            close(client: id, hub: &hub)
            return
        }
        if let cred { Log.debug("client \(id): pid \(cred.pid)") }
    }

    /// Takes the listener out of the loop until ``listenerRest`` is over or a client leaves.
    private func restListener() {
        listenerRest.begin(now: monotonicMicroseconds())
        loop.remove(listener.fd)
    }

    /// Polls the listener again (with its reserve, if a descriptor is there for it): its waiting
    /// connections come in with the next turn of the loop.
    private func resumeListener() {
        guard listenerRest.end() else { return }
        listener.restoreReserve()
        do { try loop.add(listener.fd, token: Daemon.Token(.listener)) } catch {
            Log.error("\(error): the listener could not be polled again; trying in \(ListenerRest.period / 1_000_000) s")
            listenerRest.begin(now: monotonicMicroseconds())
        }
    }

    /// A client's connection was closed: counted, and a resting listener tries again.
    private func clientLeft() {
        clientLog.count(.left, now: monotonicMicroseconds())
        resumeListener()
    }

    /// One warning for a run of accept failures, the rest counted for a line at the end of the window.
    private func acceptFailed(_ error: SystemError, _ meanwhile: String) {
        lastAcceptError = error
        guard acceptLog.admit(now: monotonicMicroseconds()) else { return }
        let limit = DescriptorLimit.phrase
        let what = AcceptFailure(errno: error.errno) == .outOfDescriptors
            ? "no file descriptor left for a new client" : "accepting a client failed"
        Log.warning("\(what) (\(error)\(limit)): \(meanwhile); the \(connections.count) clients connected are served")
    }

    /// A line about one client: at `level` within the budget, else at debug.
    func logAboutClient(_ level: Log.Level, _ message: String) {
        Log.write(clientLog.admit(now: monotonicMicroseconds()) ? level : .debug, message)
    }

    /// When the timer must fire for the limits: the listener's rest ending, a summary due. (Asked every
    /// turn of the loop: no array, so no allocation.)
    func limitsWake() -> Int64? {
        .earliest(.earliest(listenerRest.until, clientLog.summaryDue), acceptLog.summaryDue)
    }

    /// The timer fired: a rest that is over ends, summaries due are written; `stopping`: every summary
    /// is written now, so that what was held back is told before the daemon exits.
    func limitsTimerFired(now: Int64, stopping: Bool = false) {
        // Not once stopping: the listener is closed, and its number may already be another descriptor's.
        if !stopping, listenerRest.isOver(now: now) { resumeListener() }
        if let summary = clientLog.takeSummary(now: now, connectedNow: connections.count, early: stopping) { Log.info(summary) }
        if let (more, span) = acceptLog.takeHeldBackAndSpan(now: now, early: stopping) {
            let last = lastAcceptError.map { ", the last: \($0)" } ?? ""
            Log.warning("accepting clients: \(more) more failure\(more == 1 ? "" : "s") in the last \(span) s\(last)")
        }
    }

    /// Says whether RLIMIT_NOFILE holds `MaxClients` (at start, after a reload), and whether the reserve
    /// descriptor could be had.
    func checkDescriptorBudget(maximumClients: Int) {
        if !listener.hasReserve {
            Log.warning("no descriptor could be kept in reserve (/dev/null): at the descriptor limit newcomers "
                + "wait, unanswered, while the listener rests")
        }
        if let shortfall = DescriptorBudget.shortfall(maximumClients: maximumClients, clients: connections.count) {
            Log.warning(shortfall)
        }
    }
}
