import PressureCore

/// The daemon's brain, with no I/O: the coordinator of parts with one job each. The Linux loop feeds it
/// (device events, client lines, its timer at ``nextDeadline``) and takes the ``Work`` it gathered.
/// Devices: ``DeviceTable``; clients and fan-out: ``ClientTable``; requests: ``RequestHandler``; regions:
/// ``RegionRouter`` and ``QuickActionStore``; settings and access: ``HubSettings``; admission:
/// ``ClientAdmission``; haptics: ``HapticCues``; latency: ``LatencyBook``; whole streams:
/// ``ClientStreams``. Non-copyable, so the loop's queries borrow it. One clock, the loop's
/// (``DeviceClock``): a replay drives it exactly as a device does.
public struct Hub: ~Copyable, Sendable {
    /// Bad requests a connection may make in a row before it is closed (a request answered without an
    /// error starts the count again): a client stuck sending garbage goes, one that errs now and then stays.
    public static let maximumErrorsPerClient = ProtocolError.maximumErrors
    /// How long a chosen action waits for its app to connect and subscribe.
    public static let choiceLifetime = Timestamp.Duration(microseconds: 30_000_000)
    /// At most this many choices wait at once; the oldest is dropped (and logged) beyond it.
    public static let maximumPendingChoices = 64
    /// At most this many apps keep quick actions registered at run time; the one that set them longest
    /// ago loses them (logged) beyond it, so connections inventing app ids cannot grow the daemon.
    public static let maximumQuickActionApps = 256

    /// The settings and configuration in force, and who may do what under them.
    var rules: HubSettings
    /// The gesture settings in force (the configuration's, or what a `set` request made of them).
    public var settings: GestureSettings { rules.settings }
    /// The configuration in force (read again on `SIGHUP` and `reload`).
    public var configuration: Configuration { rules.configuration }
    /// The configuration's haptic settings, kept merged (gestures look them up on the hot path).
    public var haptics: HapticSettings { rules.haptics }
    /// The daemon's own user: as privileged as root (``AccessPolicy``).
    public var daemonUser: UInt32 { rules.daemonUser }
    /// Log every gesture state transition (`--verbose`).
    public var recordsTransitions = false {
        didSet {
            for i in devices.entries.indices { devices.entries[i].pipeline.recordsTransitions = recordsTransitions }
        }
    }

    var devices = DeviceTable()
    var clients: ClientTable
    var regions = RegionRouter()
    /// Touches a gesture took for a region's owner: what filter mode cancels (``cancelledSlots(device:palms:)``).
    var taken = TakenTouches()
    /// Touches held from a hold-mode clone until pressured knows what they are (``heldSlots(device:)``).
    var held = HeldTouches()
    var quickActions = QuickActionStore()
    var latencyBook = LatencyBook()
    /// What the loop takes next (``takeWork(_:)``); every part adds to it.
    var work = Work()
    /// What the loop did since it started (wake-ups, connections accepted and refused): the loop counts
    /// it, the hub reports it with `status`.
    public var activity = DaemonActivity()

    /// A hub serving nothing yet; `queueCapacity`: the bytes each client may have waiting (``ClientQueue``);
    /// `daemonUser`: the user the daemon runs as (`getuid()`).
    public init(configuration: Configuration, queueCapacity: Int = 256 * 1024, daemonUser: UInt32 = 0) {
        rules = HubSettings(configuration: configuration, daemonUser: daemonUser)
        clients = ClientTable(queueCapacity: queueCapacity)
    }

    /// What the loop takes after feeding the hub, and its parts (``HubWork``).
    public typealias Work = HubWork
    public typealias Notice = HubWork.Notice
    public typealias Disconnect = HubWork.Disconnect
    public typealias LearnedSave = HubWork.LearnedSave
    public typealias ReloadRequest = HubWork.ReloadRequest

    /// Hands the work gathered so far to the loop by swapping it with the loop's (emptied) value: no copy
    /// and no allocation on the hot path, as returning it would cost.
    public mutating func takeWork(_ taken: inout Work) {
        swap(&work, &taken)
        clients.workTaken()
    }

    /// The work gathered so far, as a copy: for tests and tools.
    public mutating func takeWork() -> Work {
        var taken = Work()
        takeWork(&taken)
        return taken
    }

    // MARK: What the hub holds

    /// Devices served.
    public var deviceCount: Int { devices.count }
    /// Their ids, in the order they came.
    public var deviceIDs: [Int] { devices.ids }
    /// How clients see them (`hello`, `devices`).
    public var deviceInfos: [DeviceInfo] { devices.infos }

    /// What the hub holds now (the `status` request).
    public var status: DaemonStatus {
        DaemonStatus(
            devices: devices.count, clients: clients.count, subscribers: clients.subscriberCount,
            contacts: devices.liveContacts, regionContacts: regions.ownedTouches, regions: regions.count,
            quickActionApps: quickActions.appCount, pendingChoices: quickActions.choices.count,
            queuedBytes: clients.queuedBytes)
    }

    /// Who may do what, under the configuration in force.
    var access: AccessPolicy { rules.access }

    /// Each device's force, as `status` reports it beside the counts.
    var forceStatus: [DeviceForceStatus] {
        devices.entries.map { DeviceForceStatus(device: $0.id, pipeline: $0.pipeline) }
    }

    /// Whether any client has subscribed (a replay waits for one).
    public var hasSubscriber: Bool { clients.hasSubscriber }

    // MARK: The clock

    /// When the loop must next call ``tick(now:)``: the earliest long-press deadline of any device, the
    /// expiry of the first waiting choice, and when a touch held from a clone is let go, on the loop's clock.
    public var nextDeadline: Timestamp? {
        let due = Timestamp?.earliest(devices.nextDeadline, quickActions.earliestExpiry)
        return held.isEmpty ? due : .earliest(due, heldDeadline)
    }

    /// The loop's timer reached `now`: every device fires the long presses due by then on its clock, and
    /// choices whose app did not come in time are dropped.
    public mutating func tick(now: Timestamp) {
        for i in devices.entries.indices {
            guard let due = devices.entries[i].pipeline.nextDeadline,
                  let t = devices.entries[i].clock.deviceTime(at: now), due <= t else { continue }
            devices.entries[i].pipeline.tick(t)
            route(deviceAt: i)
        }
        if !held.isEmpty { letGoHeld(now: now) }
        quickActions.expire(now: now, &work)
    }

    // MARK: Latency

    /// How many devices that went away keep their latency figures in `status`: a replay that finished,
    /// or a panel unplugged, is still seen by the next scrape.
    public static let retiredLatencyKept = LatencyBook.retiredKept

    /// Whether frames wait for ``framesQueued(now:)``: the loop reads its clock only then.
    public var awaitsQueueTime: Bool { latencyBook.awaitsQueueTime(devices) }

    /// The frames fed since the last call have their lines queued for clients: `now` on the loop's clock.
    public mutating func framesQueued(now: Timestamp) { latencyBook.framesQueued(now: now, &devices) }

    /// Whether frames wait to be written to clients: the loop calls ``framesWritten(now:)`` then, after
    /// writing.
    public var awaitsDelivery: Bool { latencyBook.awaitsDelivery(devices) }

    /// The loop has written what it could, at `now`: if no client holds unwritten bytes, every frame
    /// queued so far has been delivered (else they wait for a later call).
    public mutating func framesWritten(now: Timestamp) {
        guard clients.queuedBytes == 0 else { return }
        latencyBook.framesDelivered(now: now, &devices)
    }

    /// Each device's latency figures, as `status` reports them: the devices served, then those gone.
    public var latency: [DeviceLatency] { latencyBook.report(devices) }

    // MARK: Settings, configuration, stopping

    /// New settings or configuration (`set`, `SIGHUP`): every pipeline takes them at once; every client
    /// hears of the new settings and of each device whose force capability or range changed.
    mutating func apply(settings new: GestureSettings, configuration newConfiguration: Configuration) {
        let settingsChanged = rules.take(new, newConfiguration)
        // An app the configuration now closes to a client that claimed it is no longer its: it gets none of
        // its choices, and may not set its quick actions.
        let policy = access
        for (c, app) in clients.revokeApps(keeping: { policy.refusalToAct(as: $0, $1) == nil }) {
            work.notices.append(.warning("client \(c) is no longer app \(app): the configuration closed it to \(clients.peer(of: c))"))
        }
        for i in devices.entries.indices {
            if devices.reconfigure(i, newConfiguration, settings: new, &work) {
                broadcastDevice(.changed, devices[i].info)
            }
            devices.entries[i].pipeline.markAnnounced()
        }
        if settingsChanged { send(.message(.settings(PublicSettings(settings))), to: .everyone) }
    }

    /// `SIGHUP` or a `reload` request: the configuration files were read again. The requester (if any) is
    /// answered before everyone hears what changed.
    public mutating func reload(_ newConfiguration: Configuration, answering request: ReloadRequest? = nil) {
        work.notices.append(.info("configuration reloaded"))
        if let r = request {
            send(.message(.reply(id: r.id, .reload(PublicSettings(newConfiguration.settings)))), to: .client(r.client))
        }
        apply(settings: newConfiguration.settings, configuration: newConfiguration)
    }

    /// The configuration could not be read again: the old one stays, and the requester is told why.
    public mutating func reloadFailed(_ message: String, answering request: ReloadRequest?) {
        work.notices.append(.warning("reload failed, keeping the old configuration: \(message)"))
        guard let r = request else { return }
        send(.message(.error(ProtocolError(id: r.id, code: .reloadFailed, message: message))), to: .client(r.client))
    }

    /// The daemon stops: every client gets `bye`, after what ends its streams (a `dismiss` for each peek
    /// and a `cancelled` for each contact still open for it), as when a device goes.
    public mutating func shutdown(reason: String) {
        for id in clients.ids where clients.isOpen(id) { endStreams(id, keeping: nil) }
        send(.message(.bye(reason: reason)), to: .everyone)
    }

    // MARK: Sending

    /// Sends a line to its recipients (``ClientTable/send(_:to:_:)``); returns how many it was queued for.
    /// A client this closed for being too slow gets its last lines, and no longer counts as listening.
    @discardableResult
    mutating func send(_ line: ClientTable.Line, to recipients: ClientTable.Recipients) -> Int {
        afterSending(clients.send(line, to: recipients, &work))
    }

    /// Sends the touch `moved` lines gathered from a frame (``ClientTable/sendGathered(_:)``), as ``send(_:to:)``
    /// sends a line. Returns how many lines were queued, counted per client.
    mutating func sendGathered() -> Int {
        guard clients.hasGathered else { return 0 }
        return afterSending(clients.sendGathered(&work))
    }

    /// After a send: a client it closed for being too slow gets its last lines, and no longer counts as
    /// listening. Returns how many lines were queued, counted per client.
    private mutating func afterSending(_ sent: ClientTable.Sent) -> Int {
        if sent.closedAny {
            sayFarewells()
            updateTouchReporting()
        }
        return sent.clients
    }

    /// Closes a client after its last lines: a `cancelled` for each contact open for it, then the error
    /// that says why.
    mutating func close(_ client: Int, with error: ProtocolError, reason: String) {
        guard clients.close(client, with: error, reason: reason, &work) else { return }
        sayFarewells()
        updateTouchReporting()
    }

    /// Touch events cost an encoding per frame: a pipeline reports them only while someone needs them.
    mutating func updateTouchReporting() {
        for i in devices.entries.indices {
            let id = devices.entries[i].id
            // Regions need to see every touch begin, to decide who owns it; a touch a region owns must be
            // seen to end, or its owner entry would outlive it (its region may be gone already).
            devices.entries[i].pipeline.reportsTouches =
                !regions.isEmpty || regions.ownsTouches(onDevice: id) || clients.listensToTouches(device: id)
        }
    }
}
