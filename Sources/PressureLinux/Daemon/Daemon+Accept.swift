import Glibc
import PressureCommandLine
import PressureCore
import PressureHub

/// Accepting clients within the limits, so that nothing a client does spins the loop or floods the
/// journal: the cap (`MaxClients`: a newcomer past it is told `too-many-clients` and closed), the
/// descriptors (``UnixListener``'s reserve; where that fails too, the listener rests), and log lines about
/// clients within a budget with a summary (``ClientActivityLog``), all on the loop's one timer.
extension Daemon {
    /// What a connection no descriptor is left for gets instead of `hello`, encoded once.
    static let descriptorRefusal: [UInt8] = {
        var line: [UInt8] = []
        ServerMessage.error(.tooManyClients("the daemon has no file descriptor left for another client")).append(to: &line)
        return line
    }()

    func acceptClients() {
        accepting: while !listenerRest.isResting {
            switch listener.accept(refusingWith: Self.descriptorRefusal) {
            case .nonePending:
                break accepting
            case .accepted(let c):
                hub.activity.accepted += 1
                admit(c)
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
    private func admit(_ c: ClientConnection) {
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
        clients.insert(c, id: id)
        do { try loop.add(c.fd, token: Token(.client, id)) } catch {
            logAboutClient(.error, "client \(id): \(error)")
            close(client: id)
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
        do { try loop.add(listener.fd, token: Token(.listener)) } catch {
            Log.error("\(error): the listener could not be polled again; trying in \(ListenerRest.period / 1_000_000) s")
            listenerRest.begin(now: monotonicMicroseconds())
        }
    }

    /// A client's connection was closed: counted, and a resting listener tries again.
    func clientLeft() {
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
        Log.warning("\(what) (\(error)\(limit)): \(meanwhile); the \(clients.count) clients connected are served")
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
        if let summary = clientLog.takeSummary(now: now, connectedNow: clients.count, early: stopping) { Log.info(summary) }
        let span = acceptLog.span(now: now, early: stopping)
        if let more = acceptLog.takeHeldBack(now: now, early: stopping) {
            let last = lastAcceptError.map { ", the last: \($0)" } ?? ""
            Log.warning("accepting clients: \(more) more failure\(more == 1 ? "" : "s") in the last \(span) s\(last)")
        }
    }

    /// Says whether RLIMIT_NOFILE holds `MaxClients` (at start, after a reload), and whether the reserve
    /// descriptor could be had.
    func checkDescriptorBudget() {
        if !listener.hasReserve {
            Log.warning("no descriptor could be kept in reserve (/dev/null): at the descriptor limit newcomers "
                + "wait, unanswered, while the listener rests")
        }
        if let shortfall = DescriptorBudget.shortfall(maximumClients: hub.maximumClients, clients: clients.count) {
            Log.warning(shortfall)
        }
    }
}
