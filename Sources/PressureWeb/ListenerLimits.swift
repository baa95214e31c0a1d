import Glibc
import PressureCommandLine
import PressureSystem
import PressureWebBridge
import PressureWebSocket

/// At the descriptor limit, as the daemon does (PressureSystem's ``AcceptGuard`` and ``ListenerRest``,
/// shared with it): a browser no descriptor is left for is answered 503 on the reserve descriptor and
/// closed; where even that fails the listeners rest (are not polled) a second or until a connection
/// closes, so the level-triggered listeners cannot spin the loop; a page whose connection to the daemon
/// cannot be opened for want of a descriptor is answered 503 too. One warning a spell
/// (``DescriptorLimitSpell``); the pages already connected are untouched.
///
/// Kept apart from ``WebBridge`` because this is one policy with state of its own (the reserve, the
/// rest, the spell) that the loop consults, not part of moving bytes.
struct ListenerLimits {
    /// The reserve descriptor and accept4's failures, for every listener.
    let acceptGuard = AcceptGuard()
    /// Whether the listeners rest (are not polled) because accepting cannot go on, and until when.
    var rest = ListenerRest()
    /// The current spell at the descriptor limit, for its one warning and its summary.
    var spell = DescriptorLimitSpell()

    /// What a browser no descriptor is left for gets, before any request is read.
    static let descriptorRefusal = HTTPResponse.plain(
        503, "pressured-web has no file descriptor left for another connection; try again later",
        fields: [.init(name: "Retry-After", value: "1")]).serialized()

    /// What a page gets when its connection to the daemon cannot be opened for want of a descriptor.
    static let daemonDescriptorRefusal = HTTPResponse.plain(
        503, "pressured-web has no file descriptor left for the page's connection to pressured; try again later",
        fields: [.init(name: "Retry-After", value: "1")])

    /// Takes every listener out of `loop` until ``rest`` is over or a connection closes (the limit is
    /// the process's, so every listener meets it).
    mutating func restListeners(_ listeners: [TCPListener], in loop: EventLoop) {
        rest.begin(now: monotonicMicroseconds())
        for l in listeners { loop.remove(l.fd) }
    }

    /// Polls the listeners again, with the reserve if a descriptor is there for it: their waiting
    /// browsers come in with the next turn of the loop.
    mutating func resumeListeners(_ listeners: [TCPListener], in loop: EventLoop) {
        guard rest.end() else { return }
        acceptGuard.restoreReserve()
        do {
            for (i, l) in listeners.enumerated() { try loop.add(l.fd, token: WebBridge.Token(.listener, i)) }
        } catch {
            Log.error("\(error): the listeners could not be polled again; trying in \(ListenerRest.period / 1_000_000) s")
            for l in listeners { loop.remove(l.fd) }
            rest.begin(now: monotonicMicroseconds())
        }
    }

    /// A page connected to the daemon (it had the two descriptors it takes): a spell at the limit, if
    /// any, is over and summed up. (Not at accept: at the limit a browser is often accepted with the last
    /// descriptor, and only its daemon connection fails.)
    mutating func pageServed() {
        guard case .summary(let seconds, let failures, let refused)? = spell.handle(.served, now: monotonicMicroseconds())
        else { return }
        Log.info("file descriptors free again after \(seconds) s at the limit: \(failures) failure\(failures == 1 ? "" : "s"), "
            + "\(refused) browser\(refused == 1 ? "" : "s") answered 503; \(acceptFigures)")
    }

    /// Accepting, or a page's connection to the daemon, failed: the spell's one warning, else counted;
    /// `openConnections`: how many the bridge serves meanwhile.
    mutating func atDescriptorLimit(_ error: SystemError, refused: Bool, _ meanwhile: String, openConnections: Int) {
        guard spell.handle(.failed(refused: refused), now: monotonicMicroseconds()) == .warning else { return }
        let limit = DescriptorLimit.phrase
        let what = AcceptFailure(errno: error.errno) == .outOfDescriptors
            ? "no file descriptor left for a browser" : "accepting a browser failed"
        Log.warning("\(what) (\(error)\(limit)): \(meanwhile); the \(openConnections) connections open are served; "
            + "one line when this is over")
    }

    /// The accept figures a test bounds (the loop does not spin at the limit): in the summary and at exit.
    var acceptFigures: String {
        "accept4 called \(acceptGuard.attempts) times, \(acceptGuard.failures) failed, "
            + "\(spell.totalRefused) answered 503 at the descriptor limit, the listeners rested \(rest.count) times"
    }
}
