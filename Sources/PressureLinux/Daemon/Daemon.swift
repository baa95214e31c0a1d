import Glibc
import PressureCommandLine
import PressureCore
import PressureHub

/// The running daemon: one epoll loop over device fds, the hot-plug monitor, the listening socket, clients,
/// a timerfd for long-press deadlines (and replay pacing) and a signalfd. All decisions are the ``Hub``'s;
/// this class does the I/O it asks for.
public final class Daemon {
    /// What woke the loop: the kind of an epoll token (``EpollToken``), with an id for devices and clients.
    enum Source: UInt32 {
        case listener = 1, signals, timer, hotplug, device, client, watchdog
    }
    typealias Token = EpollToken<Source>

    let options: DaemonOptions
    var hub: Hub
    let loop: EventLoop
    let timer: DeadlineTimer
    let signals: SignalWatcher
    let listener: UnixListener
    var clients = ClientConnections()
    var devices: [Int: EvdevDevice] = [:]
    var deviceNodes: [String: Int] = [:]
    /// Filter mode's grabbed panels, their clones, and the clones systemd kept (``PanelFilters``).
    let filters: PanelFilters
    var discovery: (any HotplugSource)? = nil
    var replay: ReplayRun? = nil
    /// `--exit-when-done` after the replay's end: waiting for the clients to read what they were sent.
    var catchUp: ClientCatchUp? = nil
    var lifetime = LoopLifetime()
    var readBuffer: [InputEvent] = []
    let notify: SystemdNotify?
    /// Armed only when systemd asked for keep-alives (`WatchdogSec=`): otherwise an idle daemon never wakes.
    var watchdog: DeadlineTimer? = nil
    /// The last `STATUS=` sent; nil until `READY=1` went out (STATUS changes are reported after it).
    var reportedStatus: String? = nil
    var reportedCounts = (devices: -1, clients: -1)
    /// Swapped with the hub's each iteration, so taking the work allocates nothing.
    var work = Hub.Work()
    /// What devices learned, kept between runs.
    let learnedStore: LearnedStateStore
    /// Lines about clients, within a budget, and their summary (`Daemon+Clients.swift`).
    var clientLog = ClientActivityLog()
    /// Accept failures: one line a window, then how many more.
    var acceptLog = LogRateLimit(budget: 1)
    var lastAcceptError: SystemError? = nil
    /// Whether the listener rests (is not polled) because accepting cannot go on, and until when.
    var listenerRest = ListenerRest()
    /// The haptic devices gestures play on (``HapticDevices``).
    var haptics: HapticDevices

    /// Sets everything up; a failure here is a clear message and a non-zero exit, before serving anyone.
    public init(options: DaemonOptions) throws(DaemonError) {
        self.options = options
        learnedStore = LearnedStateStore(directory: options.stateDirectory + "/learned")
        clientLog = ClientActivityLog(windowMicroseconds: options.logWindowMicroseconds)
        acceptLog = LogRateLimit(budget: 1, windowMicroseconds: options.logWindowMicroseconds)
        if options.verbose { Log.threshold = .debug }
        let configuration = try Self.loadConfiguration(options)
        hub = Hub(configuration: configuration, daemonUser: getuid())
        haptics = HapticDevices(settings: configuration.haptics)
        hub.recordsTransitions = options.verbose
        do {
            loop = try EventLoop()
            timer = try DeadlineTimer()
            signals = try SignalWatcher()
        } catch { throw .system(error) }
        let replayInput = try options.replay.map { path throws(DaemonError) in try ReplayInput.load(path, options: options) }
        let passed = SocketActivation.passed(storedPrefixes: [TouchClone.storePrefix])
        for fd in passed.duplicates { Glibc.close(fd) }
        notify = SystemdNotify()
        filters = PanelFilters(kept: passed.stored, notify: notify)
        if let inherited = passed.listening.first {
            listener = UnixListener(inheritedFD: inherited, path: options.socketPath)
            // Says which way the socket came, so a socket-activated start can be told from a self-bound one.
            Log.info("listening on the socket systemd passed (LISTEN_FDS, fd \(inherited))")
        } else {
            do { listener = try UnixListener(path: options.socketPath, group: options.group) } catch {
                throw .listener(error)
            }
        }
        readBuffer.reserveCapacity(1024)
        do {
            try loop.add(listener.fd, token: Token(.listener))
            try loop.add(signals.fd, token: Token(.signals))
            try loop.add(timer.fd, token: Token(.timer))
        } catch { throw .system(error) }
        if options.realtime { Realtime.enable() }
        if let replayInput {
            try startReplaySource(replayInput)
        } else {
            startDevices()
        }
        filters.discardUnclaimed()
        haptics.start(discovery: discovery, replaying: options.replay != nil)
        Log.info("pressured \(pressuredVersion) serving \(options.socketPath) with \(hub.deviceCount) device(s)")
        checkDescriptorBudget()
        performHubWork()
        if let interval = notify?.watchdogIntervalMicroseconds {
            do {
                let w = try DeadlineTimer(name: "watchdog timer")
                try loop.add(w.fd, token: Token(.watchdog))
                try w.arm(atMonotonicMicroseconds: monotonicMicroseconds() + interval)
                watchdog = w
            } catch { Log.warning("watchdog: \(error)") }
        }
        // Devices are open and the socket is bound: ready, from the main process (see docs).
        notify?.send("READY=1\n\(status())")
        reportedStatus = status()
    }

    /// `STATUS=` for systemctl status.
    func status() -> String {
        let n = hub.deviceCount
        return "STATUS=serving \(n) device\(n == 1 ? "" : "s") to \(clients.count) client\(clients.count == 1 ? "" : "s")"
    }

    func keepAlive() {
        guard let w = watchdog, let interval = notify?.watchdogIntervalMicroseconds else { return }
        do {
            try w.acknowledge()
            notify?.send("WATCHDOG=1")
            try w.arm(atMonotonicMicroseconds: monotonicMicroseconds() + interval)
        } catch { lifetime.fail(error, because: "the keep-alives systemd's watchdog waits for can no longer be sent") }
    }

    static func loadConfiguration(_ options: DaemonOptions) throws(DaemonError) -> Configuration {
        var paths = options.configPaths
        if paths.isEmpty, access(DaemonOptions.defaultConfigPath, R_OK) == 0 { paths = [DaemonOptions.defaultConfigPath] }
        do { return try ConfigurationLoader.load(paths: paths, resolvingAccounts: true) } catch { throw .configuration(error) }
    }

    /// Runs until `SIGTERM`/`SIGINT` (or the end of a replay with `--exit-when-done`); returns the exit status.
    public func run() -> Int32 {
        while lifetime.running {
            armTimer()
            do {
                try loop.wait(for: Source.self) { token, events in self.dispatch(token, events) }
            } catch {
                Log.error("\(error)")
                return 1
            }
            hub.activity.wakeups += 1
            performHubWork()
            if var c = catchUp {
                c.look(now: monotonicMicroseconds(), hub: hub, clients: clients)
                if c.allCaughtUp { lifetime.finish() }
                catchUp = c
            }
        }
        notify?.send("STOPPING=1")
        // Requests that arrived before the stop are answered before `bye`: one read of every client.
        for (id, _) in clients { clientReady(id, EventLoop.readable) }
        performHubWork()
        hub.shutdown(reason: "shutdown")
        filters.endContacts { self.devices[$0]?.currentSlot ?? 0 }
        performHubWork()
        learnedStore.flush(now: monotonicMicroseconds(), force: true)
        // Last words: the clients get up to a second, together, to take what is queued for them.
        LastWords.write(clients) { flush(client: $0) }
        listener.stop()
        haptics.closeAll()
        limitsTimerFired(now: monotonicMicroseconds(), stopping: true)  // what was held back, told before the end
        Log.info("pressured stopped")
        return lifetime.exitStatus
    }

    func dispatch(_ t: Token, _ events: UInt32) {
        switch t.kind {
        case .listener: acceptClients()
        case .signals: handleSignals()
        case .timer: timerFired()
        case .hotplug: hotplugEvents()
        case .device: readDevice(t.id)
        case .client: clientReady(t.id, events)
        case .watchdog: keepAlive()
        }
    }

    func handleSignals() {
        signals.dispatch(into: &lifetime, program: "the daemon") { reload(answering: nil) }
    }

    /// Reads the configuration again (`SIGHUP`, a `reload` request) without dropping anyone.
    func reload(answering request: Hub.ReloadRequest?) {
        notify?.send("RELOADING=1")
        do {
            hub.reload(try Self.loadConfiguration(options), answering: request)
            haptics.reload(hub.haptics, discovery: discovery, replaying: options.replay != nil)
        } catch {
            hub.reloadFailed(error.description, answering: request)
        }
        checkDescriptorBudget()
        notify?.send("READY=1")
    }

    /// Arms the timerfd for the earliest long-press deadline or replay step, only when it changed.
    func armTimer() {
        var earliest: Int64? = nil
        func consider(_ t: Int64?) {
            earliest = .earliest(earliest, t)
        }
        consider(limitsWake())  // a resting listener, summaries of what clients did
        consider(hub.nextDeadline?.microseconds)  // long presses (a paced replay's too) and waiting choices
        consider(learnedStore.nextDue)
        // A paced replay's next events; at full speed, at once unless readers hold it back.
        replay?.noteReaders(hub: hub, clients: clients)
        consider(replay?.wake)
        if catchUp != nil { consider(monotonicMicroseconds() + ClientCatchUp.checkInterval) }  // clients still reading
        timer.arm(atMonotonicMicroseconds: earliest, failing: &lifetime, deadlines: Self.timerDeadlines)
    }

    /// What the timer is for, in the log line when it fails.
    static let timerDeadlines = "long-press deadlines and replay steps"

    func timerFired() {
        guard timer.acknowledge(failing: &lifetime, deadlines: Self.timerDeadlines) else { return }
        let now = monotonicMicroseconds()
        limitsTimerFired(now: now)
        // A replay's events due by now first: a long press fires only once the events before it are in.
        if replay != nil { stepReplay(now: now) }
        // So do a live device's: epoll may list the timer before a device's fd, and a finger that lifted
        // or moved just before its deadline must be seen first (nor may its frame come out after the press).
        if let due = hub.nextDeadline, due.microseconds <= now {
            for id in devices.keys { readDevice(id) }
        }
        hub.tick(now: Timestamp(microseconds: now))
        learnedStore.flush(now: now)
    }

    /// Does the work the hub gathered, until there is none: what it asks for (a reload's answers, a
    /// dropped-touches notice) comes out with the next round, before the loop waits again.
    func performHubWork() {
        while true {
            hub.takeWork(&work)
            if work.isEmpty { break }
            perform(work)
            work.removeAll()
        }
        // Written what could be: frames whose lines every client now has are delivered (latency figures).
        if hub.awaitsDelivery { hub.framesWritten(now: Timestamp(microseconds: monotonicMicroseconds())) }
    }

    /// Reads the configuration for `reload` requests, logs what the hub noticed, writes what it queued,
    /// stages what devices learned, closes whom it dropped.
    private func perform(_ work: Hub.Work) {
        // Haptics first: the effect starts before any client has even been written the gesture.
        if !work.haptics.isEmpty { haptics.play(work.haptics) }
        for r in work.reloads { reload(answering: r) }
        for n in work.notices {
            switch n {
            case .info(let m): Log.info(m)
            case .warning(let m): Log.warning(m)
            case .debug(let m): Log.debug(m)
            case .client(let m): logAboutClient(.info, m)
            case .clientWarning(let m): logAboutClient(.warning, m)
            }
        }
        for id in work.writable { flush(client: id) }
        if !work.learnedSaves.isEmpty {
            let now = monotonicMicroseconds()
            for save in work.learnedSaves {
                if save.reset { learnedStore.forget(save.key) } else { learnedStore.stage(save, now: now) }
            }
        }
        for d in work.disconnects { close(client: d.client) }
        // Counts first: building the STATUS string only when it changed keeps this allocation-free.
        if notify != nil, reportedStatus != nil, reportedCounts != (hub.deviceCount, clients.count) {
            reportedCounts = (hub.deviceCount, clients.count)
            let now = status()
            if now != reportedStatus {
                notify?.send(now)
                reportedStatus = now
            }
        }
    }
}
