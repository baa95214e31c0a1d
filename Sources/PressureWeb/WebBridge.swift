import Glibc
import PressureCommandLine
import PressureProtocol
import PressureSystem
import PressureWebBridge
import PressureWebSocket

/// `pressured-web`'s loop: one epoll over the listening sockets, every browser connection and every
/// daemon connection, a timerfd for the earliest deadline (request heads, pings, close handshakes) and a
/// signalfd. Decisions are ``RequestRouter``'s and ``WebSocketSession``'s; this does their I/O.
public final class WebBridge {
    /// What woke the loop: the kind of an epoll token (``EpollToken``), with the listener's index or
    /// the connection's id.
    enum Source: UInt32 {
        case listener = 1, browser, daemon, timer, signals
    }
    typealias Token = EpollToken<Source>

    /// Connections beyond this are closed at accept: a kiosk has a handful of pages.
    public static let maximumConnections = 512

    let options: BridgeOptions
    var configuration: BridgeConfiguration
    var router: RequestRouter
    let loop: EventLoop
    let timer: DeadlineTimer
    let signals: SignalWatcher
    var listeners: [TCPListener] = []
    /// What the bridge does at the descriptor limit: the reserve, the listeners' rest, the spell.
    var limits = ListenerLimits()
    /// Where the sockets systemd passed listen (none when the bridge binds its own).
    let systemdAddresses: [ListenAddress]
    var connections: [Int: BrowserConnection] = [:]
    var nextID = 1
    var lifetime = LoopLifetime()
    var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
    let notify = SystemdNotify()

    public init(options: BridgeOptions) throws(BridgeError) {
        self.options = options
        if options.verbose { Log.threshold = .debug }
        listeners = SocketActivation.listeningFDs().map { TCPListener(inheritedFD: $0) }
        systemdAddresses = listeners.compactMap(\.address)
        configuration = try Self.loadConfiguration(options, listening: systemdAddresses)
        router = RequestRouter(configuration: configuration, files: try Self.loadFiles(configuration))
        do {
            loop = try EventLoop()
            timer = try DeadlineTimer()
            signals = try SignalWatcher()
        } catch { throw .system(error) }
        do {
            if listeners.isEmpty {
                for a in configuration.listen { listeners.append(try TCPListener(address: a)) }
            }
            for (i, l) in listeners.enumerated() { try loop.add(l.fd, token: Token(.listener, i)) }
            try loop.add(timer.fd, token: Token(.timer))
            try loop.add(signals.fd, token: Token(.signals))
        } catch { throw .system(error) }
        if !limits.acceptGuard.restoreReserve() {
            Log.warning("no descriptor could be kept in reserve (/dev/null): at the descriptor limit browsers "
                + "wait, unanswered, while the listeners rest")
        }
        for l in listeners { Log.info("listening on \(l.name)") }
        Log.info("pressured-web \(pressuredVersion): pages connect to ws://HOST\(RequestRouter.webSocketPath), "
            + "bridged to \(configuration.daemonSocket); \(router.files.files.count) file(s) served; "
            + "hosts \(configuration.acceptedHosts.joined(separator: " "))")
        let identity = BridgeIdentity.current()
        Log.info("pressured sees every page as this process, \(identity): it decides control and closed apps by that")
        if identity.isRoot {
            Log.warning("running as root, whom pressured lets be any app and control: pages are held by web.conf alone; "
                + "run as the pressured-web user (pressured-web.service does)")
        }
        notify?.send("READY=1\nSTATUS=no pages connected")
    }

    /// web.conf with the command line's overrides; `listening`: the addresses of the sockets systemd passed,
    /// which stand for `Listen` (so the Host values answered by default are theirs).
    static func loadConfiguration(_ options: BridgeOptions, listening: [ListenAddress]) throws(BridgeError) -> BridgeConfiguration {
        var c = BridgeConfiguration()
        let path = options.configPath ?? (access(BridgeOptions.defaultConfigPath, R_OK) == 0 ? BridgeOptions.defaultConfigPath : nil)
        if let path {
            let bytes: [UInt8]
            do { bytes = try FileBytes.read(path) } catch { throw .system(error) }
            do { c = try BridgeConfigurationParser.parse(String(decoding: bytes, as: UTF8.self), file: path) } catch {
                throw .configuration(error)
            }
        }
        options.apply(to: &c)
        if !listening.isEmpty { c.listen = listening }
        return c
    }

    static func loadFiles(_ c: BridgeConfiguration) throws(BridgeError) -> StaticFiles {
        guard let root = c.root else { return StaticFiles() }
        do { return try StaticFilesLoader.load(root: root) } catch { throw .files(root, error) }
    }

    /// Runs until `SIGTERM`/`SIGINT`; returns the exit status.
    public func run() -> Int32 {
        while lifetime.running {
            armTimer()
            do {
                try loop.wait(for: Source.self) { token, events in self.dispatch(token, events) }
            } catch {
                Log.error("\(error)")
                return 1
            }
        }
        notify?.send("STOPPING=1")
        shutdown()
        Log.info("pressured-web stopped; \(limits.acceptFigures)")
        return lifetime.exitStatus
    }


    func dispatch(_ t: Token, _ events: UInt32) {
        switch t.kind {
        case .listener: accept(from: t.id)
        case .browser: browserReady(t.id, events)
        case .daemon: daemonReady(t.id, events)
        case .timer: timerFired()
        case .signals: handleSignals()
        }
    }

    func handleSignals() {
        signals.dispatch(into: &lifetime, program: "the bridge") { reload() }
    }

    /// `SIGHUP`: web.conf and the files again, for connections from now on (listeners stay).
    func reload() {
        do {
            let c = try Self.loadConfiguration(options, listening: systemdAddresses)
            router = RequestRouter(configuration: c, files: try Self.loadFiles(c))
            configuration = c
            Log.info("configuration reloaded: \(router.files.files.count) file(s), \(c.origins.count) origin(s)")
        } catch {
            Log.warning("reload failed, keeping the old configuration: \(error)")
        }
    }

    func armTimer() {
        var earliest = limits.rest.until
        for c in connections.values {
            earliest = .earliest(earliest, c.deadline)
        }
        timer.arm(atMonotonicMicroseconds: earliest, failing: &lifetime, deadlines: Self.timerDeadlines)
    }

    /// What the timer is for, in the log line when it fails.
    static let timerDeadlines = "request, ping and close deadlines and the listeners' rest"

    func timerFired() {
        guard timer.acknowledge(failing: &lifetime, deadlines: Self.timerDeadlines) else { return }
        let now = monotonicMicroseconds()
        if limits.rest.isOver(now: now) { resumeListeners() }
        for (id, c) in connections {
            guard let d = c.deadline, d <= now else { continue }
            switch c.phase {
            case .request:
                Log.info("\(c.peer): no request head within \(BrowserConnection.requestTimeout / 1_000_000) s")
                answer(c, .plain(408, "request head not received in time"), includeBody: true, now: now)
            case .answering:
                finish(id)
                continue
            case .webSocket(let link):
                if case .closed(let giveUp) = link.session.state, now >= giveUp {
                    finish(id)  // it took nothing more before the deadline
                    continue
                }
                perform(link.session.handle(.tick, now: now), on: c, link)
            }
            flush(id)
        }
    }

    /// Every page is told the bridge stops (1001), with a second for its frames to go out.
    func shutdown() {
        let now = monotonicMicroseconds()
        for (id, c) in connections {
            guard let link = c.link else { continue }
            perform(link.session.handle(.daemonGone(failed: false), now: now), on: c, link)
            link.daemon = nil
            let deadline = now + 1_000_000
            while c.hasPendingBytes && monotonicMicroseconds() < deadline {
                flush(id)
                if connections[id] == nil { break }
                var p = pollfd(fd: c.socket.fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, 100)
            }
        }
        connections.removeAll()
    }

    func updateStatus() {
        guard let notify else { return }
        let pages = connections.values.filter { $0.link != nil }.count
        notify.send("STATUS=\(pages == 0 ? "no" : String(pages)) page\(pages == 1 ? "" : "s") connected")
    }

    // MARK: At the descriptor limit (``ListenerLimits``)

    func restListeners() { limits.restListeners(listeners, in: loop) }

    func resumeListeners() { limits.resumeListeners(listeners, in: loop) }

    func pageServed() { limits.pageServed() }

    func atDescriptorLimit(_ error: SystemError, refused: Bool, _ meanwhile: String) {
        limits.atDescriptorLimit(error, refused: refused, meanwhile, openConnections: connections.count)
    }
}

/// Why the bridge could not start.
public enum BridgeError: Error, CustomStringConvertible {
    case system(SystemError)
    case configuration(BridgeConfigurationError)
    case files(String, SystemError)

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .configuration(let e): return e.description
        case .files(let root, let e): return "\(root) (Root, the files to serve): \(e)"
        }
    }
}
