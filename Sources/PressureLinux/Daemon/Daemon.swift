import Glibc
import PressureCommandLine
import PressureCore
import PressureHub

/// The running daemon: one epoll loop, and handlers for what wakes it, each with its own state (as a
/// channel pipeline is handlers): ``DevicesHandler`` (discovery, hot-plug, reading devices, filter mode's
/// panels, what devices learned), ``ClientsHandler`` (the listener, client sockets, their limits and
/// their log), ``ReplayDriver`` (`--replay`), ``SystemdSupervisor`` (notify, the watchdog, the descriptors
/// systemd passes) and ``HapticDevices``. The daemon keeps the loop, its timer and signals, routes each
/// epoll token to its handler and the hub's work to whom it is for, and stops them in order.
///
/// All decisions are the ``Hub``'s. It is non-copyable and has one owner, this class, which lends it to
/// a handler in place for each call (`&hub`), with no exclusivity check at run time (see `hub`).
public final class Daemon {
    /// What woke the loop: the kind of an epoll token (``EpollToken``), with an id for devices and clients.
    enum Source: UInt32 {
        case listener = 1, signals, timer, hotplug, device, client, watchdog
    }
    typealias Token = EpollToken<Source>

    let options: DaemonOptions
    // `@exclusivity(unchecked)`: the loop's one thread is the only one to touch these, and no access
    // of one overlaps another (each function is still checked when compiled); checked at run time they
    // cost a call into the runtime each time the loop reads or lends them, many times a frame.
    @exclusivity(unchecked) var hub: Hub
    let loop: EventLoop
    /// The loop's one timer: long presses, replay steps, the limits' summaries, learned files due.
    let timer: DeadlineTimer
    let signals: SignalWatcher
    @exclusivity(unchecked) var lifetime = LoopLifetime()
    /// Swapped with the hub's each iteration, so taking the work allocates nothing.
    @exclusivity(unchecked) var work = Hub.Work()
    let devices: DevicesHandler
    let clients: ClientsHandler
    let replay: ReplayDriver
    let systemd: SystemdSupervisor
    /// The haptic devices gestures play on (``HapticDevices``).
    let haptics: HapticDevices

    /// Sets everything up; a failure here is a clear message and a non-zero exit, before serving anyone.
    public init(options: DaemonOptions) throws(DaemonError) {
        self.options = options
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
        let passed = SystemdSupervisor.passedDescriptors()
        systemd = SystemdSupervisor()
        devices = DevicesHandler(
            loop: loop, grab: options.grab, stateDirectory: options.stateDirectory, keptClones: passed.stored,
            notify: systemd.notify)
        replay = ReplayDriver(exitWhenDone: options.exitWhenDone)
        let listener: UnixListener
        if let inherited = passed.listening.first {
            listener = UnixListener(inheritedFD: inherited, path: options.socketPath)
            // Says which way the socket came, so a socket-activated start can be told from a self-bound one.
            Log.info("listening on the socket systemd passed (LISTEN_FDS, fd \(inherited))")
        } else {
            do { listener = try UnixListener(path: options.socketPath, group: options.group) } catch {
                throw .listener(error)
            }
        }
        do {
            clients = try ClientsHandler(listener: listener, loop: loop, logWindowMicroseconds: options.logWindowMicroseconds)
            try loop.add(signals.fd, token: Token(.signals))
            try loop.add(timer.fd, token: Token(.timer))
        } catch { throw .system(error) }
        if options.realtime { Realtime.enable() }
        if let replayInput {
            try replay.start(replayInput, speed: options.speed, hub: &hub)
        } else {
            devices.start(pinned: options.devices, inputDirectory: options.inputDirectory, hub: &hub)
        }
        devices.discardUnclaimedClones()
        haptics.start(discovery: devices.discovery, replaying: options.replay != nil)
        Log.info("pressured \(pressuredVersion) serving \(options.socketPath) with \(hub.deviceCount) device(s)")
        checkDescriptorBudget()
        performHubWork()
        systemd.startWatchdog(loop: loop)
        systemd.ready(devices: hub.deviceCount, clients: clients.count)
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
            replay.followCatchUp(hub: hub, clients: clients)
            if replay.clientsCaughtUp { lifetime.finish() }
        }
        return stop()
    }

    /// The order of the stop: requests already sent answered, contacts ended, what was learned written,
    /// the last words, then the listener, haptics and the limits' summaries.
    private func stop() -> Int32 {
        systemd.stopping()
        // Requests that arrived before the stop are answered before `bye`: one read of every client.
        for (id, _) in clients.connections { clientReady(id, EventLoop.readable) }
        performHubWork()
        hub.shutdown(reason: "shutdown")
        devices.endFilteredContacts()
        performHubWork()
        devices.flushLearned(now: monotonicMicroseconds(), force: true)
        // Last words: the clients get up to a second, together, to take what is queued for them.
        clients.writeLastWords(hub: &hub)
        clients.stopListening()
        haptics.closeAll()
        clients.limitsTimerFired(now: monotonicMicroseconds(), stopping: true)  // what was held back, told before the end
        Log.info("pressured stopped")
        return lifetime.exitStatus
    }

    /// Routes an epoll token to its handler.
    func dispatch(_ t: Token, _ events: UInt32) {
        switch t.kind {
        case .listener: clients.acceptClients(hub: &hub)
        case .signals: handleSignals()
        case .timer: timerFired()
        case .hotplug:
            devices.hotplugEvents(hub: &hub)
            haptics.followHotplug(devices.discovery)
        case .device: devices.readDevice(t.id, hub: &hub)
        case .client: clientReady(t.id, events)
        case .watchdog: systemd.keepAlive(lifetime: &lifetime)
        }
    }

    /// A client's socket is ready; a replay waiting for its first subscriber starts once one has subscribed.
    private func clientReady(_ id: Int, _ events: UInt32) {
        clients.clientReady(id, events, hub: &hub)
        replay.startIfSubscribed(hub: &hub)
    }

    func handleSignals() {
        signals.dispatch(into: &lifetime, program: "the daemon") { reload(answering: nil) }
    }

    /// Reads the configuration again (`SIGHUP`, a `reload` request) without dropping anyone.
    func reload(answering request: Hub.ReloadRequest?) {
        systemd.reloading()
        do {
            hub.reload(try Self.loadConfiguration(options), answering: request)
            haptics.reload(hub.haptics, discovery: devices.discovery, replaying: options.replay != nil)
            devices.refreshActions(hub: hub)
        } catch {
            hub.reloadFailed(error.description, answering: request)
        }
        checkDescriptorBudget()
        systemd.reloaded()
    }

    /// Whether the descriptor limit holds `MaxClients` (``ClientsHandler/checkDescriptorBudget(maximumClients:)``).
    private func checkDescriptorBudget() {
        clients.checkDescriptorBudget(maximumClients: hub.maximumClients)
    }

    /// Arms the timerfd for the earliest long-press deadline or replay step, only when it changed.
    func armTimer() {
        var earliest: Int64? = nil
        func consider(_ t: Int64?) {
            earliest = .earliest(earliest, t)
        }
        consider(clients.limitsWake())  // a resting listener, summaries of what clients did
        consider(hub.nextDeadline?.microseconds)  // long presses (a paced replay's too) and waiting choices
        consider(devices.learnedDue)
        consider(devices.actionsDue)  // a click's button, a repaint after its pointer motion
        // A paced replay's next events; at full speed, at once unless readers hold it back.
        replay.noteReaders(hub: hub, clients: clients)
        consider(replay.wake)
        consider(replay.catchUpWake)  // clients still reading before `--exit-when-done` exits
        timer.arm(atMonotonicMicroseconds: earliest, failing: &lifetime, deadlines: Self.timerDeadlines)
    }

    /// What the timer is for, in the log line when it fails.
    static let timerDeadlines = "long-press deadlines, replay steps and clicks' buttons"

    func timerFired() {
        guard timer.acknowledge(failing: &lifetime, deadlines: Self.timerDeadlines) else { return }
        let now = monotonicMicroseconds()
        clients.limitsTimerFired(now: now)
        // A replay's events due by now first: a long press fires only once the events before it are in.
        replay.step(now: now, hub: &hub, clients: clients)
        // So do a live device's: epoll may list the timer before a device's fd, and a finger that lifted
        // or moved just before its deadline must be seen first (nor may its frame come out after the press).
        if let due = hub.nextDeadline, due.microseconds <= now { devices.readAll(hub: &hub) }
        hub.tick(now: Timestamp(microseconds: now))
        devices.settleHeld(hub: &hub)
        devices.writeDueActions(now: now)
        devices.flushLearned(now: now)
    }

    /// Does the work the hub gathered, until there is none: what it asks for (a reload's answers, a
    /// dropped-touches notice) comes out with the next round, before the loop waits again.
    func performHubWork() {
        while true {
            hub.takeWork(&work)
            if work.isEmpty { break }
            perform(&work)
            work.removeAll()
        }
        LatencyClock.framesWritten(&hub)
    }

    /// Hands each handler its part of the hub's work: effects to play, actions to perform, `reload` requests, what the hub
    /// noticed to log, clients to write to, what devices learned to keep, clients to close. The loop's
    /// property is lent (`inout`, only read): passed by value it was copied, a retain and a release of each
    /// of its lists every wake-up. Nothing here takes the hub's work again.
    private func perform(_ work: inout Hub.Work) {
        // Haptics first: the effect starts before any client has even been written the gesture.
        if !work.haptics.isEmpty { haptics.play(work.haptics) }
        // Actions with them: the click or the keys on the gesture's frame.
        if !work.actions.isEmpty { devices.performActions(work.actions) }
        for r in work.reloads { reload(answering: r) }
        for n in work.notices {
            switch n {
            case .info(let m): Log.info(m)
            case .warning(let m): Log.warning(m)
            case .debug(let m): Log.debug(m)
            case .client(let m): clients.logAboutClient(.info, m)
            case .clientWarning(let m): clients.logAboutClient(.warning, m)
            }
        }
        for id in work.writable { clients.flush(client: id, hub: &hub) }
        if !work.learnedSaves.isEmpty { devices.keepLearned(work.learnedSaves) }
        for d in work.disconnects { clients.close(client: d.client, hub: &hub) }
        if systemd.reportsStatus { systemd.report(devices: hub.deviceCount, clients: clients.count) }
    }
}
