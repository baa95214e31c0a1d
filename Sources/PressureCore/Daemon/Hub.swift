/// The daemon's brain, with no I/O: devices and their pipelines, clients and their subscriptions and
/// queues, settings. The Linux event loop feeds it (device events, ticks, client lines) and performs what
/// it asks for: write the bytes queued for ``writable`` clients, close ``disconnects``, log ``notices``.
/// Because it is pure, the whole protocol is testable in-process, and a replay drives it exactly as a
/// device does.
public struct Hub: Sendable {
    /// Something worth a log line; the core does not log, the loop does.
    public enum Notice: Equatable, Sendable {
        case info(String)
        case warning(String)
        case debug(String)
    }

    /// A client the loop must close, with the line to try to send first.
    public struct Disconnect: Equatable, Sendable {
        public var client: Int
        public var reason: String
        public var finalLine: [UInt8]
    }

    struct DeviceEntry: Sendable {
        var id: Int
        var node: String
        var udev: UdevDeviceProperties
        var pipeline: TouchPipeline
        /// What a replayed log's reader assumed of its device (``DeviceInfo/assumed``).
        var assumed: [String] = []
        /// The device a learned average is kept for (devices with pressure).
        var learningKey: LearnedDeviceKey?
        /// Whether what it learns is saved (the loop decides: not for virtual or replayed devices).
        var persistsLearning: Bool
        /// The learner revision last handed out for saving.
        var savedRevision: Int
        /// Contacts that began in a region, by contact id (`Hub+Regions.swift`).
        var owners: [UInt64: RegionOwner] = [:]
        var lastTime: Timestamp?
        var info: DeviceInfo {
            var i = DeviceInfo(id: id, node: node, pipeline: pipeline)
            i.assumed = assumed
            return i
        }
    }

    struct ClientEntry: Sendable {
        var id: Int
        var queue: ClientQueue
        var subscription: Subscription?
        var mayControl: Bool
        var errors = 0
        var closing = false
        var markedWritable = false
    }

    public static let maximumErrorsPerClient = 100

    public internal(set) var settings: GestureSettings
    public internal(set) var configuration: Configuration
    public var recordsTransitions = false {
        didSet { for i in devices.indices { devices[i].pipeline.recordsTransitions = recordsTransitions } }
    }
    /// Clients with bytes newly queued since the loop last took this list.
    public internal(set) var writable: [Int] = []
    public internal(set) var disconnects: [Disconnect] = []
    public internal(set) var notices: [Notice] = []
    /// Learned averages the loop should save (``Work/learnedSaves``).
    public internal(set) var learnedSaves: [LearnedSave] = []
    /// Clients that asked for `reload` (with their request ids): the loop reads the files and calls
    /// ``reload(_:answering:)`` or ``reloadFailed(_:answering:)``.
    public internal(set) var reloads: [ReloadRequest] = []

    var devices: [DeviceEntry] = []
    /// What devices that went away had learned, so a replug carries on (newest last; bounded).
    var rememberedLearning: [(key: LearnedDeviceKey, learner: AverageTouchLearner)] = []
    static let rememberedDevices = 32
    var regions = RegionTable()
    /// Quick actions apps registered at run time, by app id (static ones come from the configuration).
    var dynamicQuickActions: [String: [QuickActionItem]] = [:]
    /// The apps in ``dynamicQuickActions``, the one that set its actions longest ago first.
    var quickActionApps: [String] = []
    var pendingChoices: [PendingChoice] = []
    var clients: [ClientEntry] = []
    var nextDeviceID = 1
    var nextClientID = 1
    var scratch: [UInt8] = []
    let queueCapacity: Int

    public init(configuration: Configuration, queueCapacity: Int = 256 * 1024) {
        self.configuration = configuration
        settings = configuration.settings
        self.queueCapacity = queueCapacity
        scratch.reserveCapacity(4096)
    }

    /// What the loop must do after feeding the hub: write to these clients, close those, log the notices.
    public struct Work: Sendable {
        public var writable: [Int] = []
        public var disconnects: [Disconnect] = []
        public var notices: [Notice] = []
        /// Learned averages to save (the newest for each device first seen changing).
        public var learnedSaves: [LearnedSave] = []
        public init() {}

        public var isEmpty: Bool { writable.isEmpty && disconnects.isEmpty && notices.isEmpty && learnedSaves.isEmpty }

        public mutating func removeAll() {
            writable.removeAll(keepingCapacity: true)
            disconnects.removeAll(keepingCapacity: true)
            notices.removeAll(keepingCapacity: true)
            learnedSaves.removeAll(keepingCapacity: true)
        }
    }

    /// A device's learned average to write to its state file.
    public struct LearnedSave: Sendable {
        public var key: LearnedDeviceKey
        public var learner: AverageTouchLearner
        /// What was learned was reset: the old file goes at once.
        public var reset = false
    }

    /// A `reload` request waiting for the loop to read the configuration.
    public struct ReloadRequest: Sendable {
        public var client: Int
        public var id: JSONValue?
    }

    /// Hands the work lists to the loop by swapping them with the loop's (emptied) ones: no copy and no
    /// allocation on the hot path, as returning them would cost.
    public mutating func swapWork(_ work: inout Work) {
        swap(&writable, &work.writable)
        swap(&disconnects, &work.disconnects)
        swap(&notices, &work.notices)
        swap(&learnedSaves, &work.learnedSaves)
        for i in clients.indices { clients[i].markedWritable = false }
    }

    public mutating func takeReloads() -> [ReloadRequest] {
        defer { reloads.removeAll() }
        return reloads
    }

    /// The work lists as a copy, for tests and tools.
    public mutating func takeWork() -> Work {
        var work = Work()
        swapWork(&work)
        return work
    }

    public var deviceCount: Int { devices.count }
    public var clientCount: Int { clients.count }

    /// What the hub holds now (the `status` request).
    public var status: DaemonStatus {
        DaemonStatus(
            devices: devices.count, clients: clients.count,
            subscribers: clients.reduce(0) { $0 + ($1.subscription == nil ? 0 : 1) },
            contacts: devices.reduce(0) { $0 + $1.pipeline.liveContactCount },
            regionContacts: devices.reduce(0) { $0 + $1.owners.count },
            regions: regions.count, quickActionApps: dynamicQuickActions.count,
            pendingChoices: pendingChoices.count,
            queuedBytes: clients.reduce(0) { $0 + $1.queue.pendingCount })
    }

    /// Each device's force, as `status` reports it beside the counts.
    public var forceStatus: [DeviceForceStatus] {
        devices.map { DeviceForceStatus(device: $0.id, pipeline: $0.pipeline) }
    }

    /// The earliest long-press deadline over every device but `excluded` (a replay keeps its own clock).
    public func earliestDeadline(excluding excluded: Int?) -> Timestamp? {
        var earliest: Timestamp? = nil
        for d in devices where d.id != excluded {
            if let t = d.pipeline.nextDeadline, earliest.map({ t < $0 }) ?? true { earliest = t }
        }
        return earliest
    }

    /// The timer reached `now`: every device but `excluded` fires the long presses due.
    public mutating func tickAll(now: Timestamp, excluding excluded: Int?) {
        for i in devices.indices where devices[i].id != excluded {
            guard let due = devices[i].pipeline.nextDeadline, due <= now else { continue }
            devices[i].pipeline.tick(now)
            route(device: i)
        }
    }

    public var deviceIDs: [Int] { devices.map(\.id) }
    public var clientIDs: [Int] { clients.map(\.id) }
    public func deviceInfo(_ id: Int) -> DeviceInfo? { devices.first { $0.id == id }?.info }
    public var deviceInfos: [DeviceInfo] { devices.map(\.info) }

    // MARK: Devices

    /// A device appears. Not a touch device: nil (and a notice). A calibration the configuration gets
    /// wrong falls back to the defaults with a warning: the device is still served. `learned`: what the
    /// loop read from the device's state file (what this run remembers of it wins, being newer);
    /// `persistsLearning`: whether what it learns is handed back for saving (``Work/learnedSaves``);
    /// `assumed`: what a replayed log's reader assumed of the device, told to apps with it.
    @discardableResult
    public mutating func addDevice(
        node: String, description: DeviceDescription, udev: UdevDeviceProperties = UdevDeviceProperties(),
        learned: AverageTouchLearner? = nil, persistsLearning: Bool = false, assumed: [String] = []
    ) -> Int? {
        let device: TouchDevice
        do { device = try TouchDevice(description) } catch {
            notices.append(.info("\(node): \(error)"))
            return nil
        }
        let id = nextDeviceID
        nextDeviceID += 1
        for problem in udev.problems { notices.append(.warning("\(node): ignoring udev property \(problem)")) }
        let key = LearnedDeviceKey(device)
        let remembered = key.flatMap { k in rememberedLearning.last { $0.key == k }?.learner }
        let setup = forceSetup(for: device, node: node, udev: udev, learned: remembered ?? learned)
        var pipeline = TouchPipeline(
            device: device, deviceID: id, force: setup, settings: settings, tracking: tracking(for: device, node: node))
        pipeline.recordsTransitions = recordsTransitions
        pipeline.geometry = configuration.screen(for: device, udevMatrix: udev.calibrationMatrix).geometry
        devices.append(DeviceEntry(
            id: id, node: node, udev: udev, pipeline: pipeline, assumed: assumed, learningKey: key,
            persistsLearning: persistsLearning, savedRevision: pipeline.force.learnedRevision))
        updateTouchReporting()
        let info = devices[devices.count - 1].info
        let why = pipeline.forceUnavailableReason.map { " (\($0.explanation))" } ?? ""
        notices.append(.info("device \(id) added: \(node) \"\(info.name)\" \(info.kind.rawValue), force \(info.forceCapability.rawValue)\(why)"))
        broadcastDevice(.added, info)
        return id
    }

    /// How a device's force is set up: its calibration from udev and the configuration, and whether
    /// its average is configured, learned (from `learned` on) or the prior.
    mutating func forceSetup(
        for device: TouchDevice, node: String, udev: UdevDeviceProperties, learned: AverageTouchLearner?
    ) -> ForceModel.Setup {
        guard device.hasPressure, let axis = device.pressureAxis else { return .none }
        do {
            let resolved = try configuration.calibration(for: device.description, pressureAxis: axis, udev: udev)
            return .resolve(resolved, settings: settings, learned: learned)
        } catch {
            notices.append(.warning("\(node): \(error); using the uncalibrated defaults"))
            let prior = ResolvedCalibration(
                calibration: ForceCalibration.uncalibrated(axis: axis), sources: CalibrationSources(), matchedSections: [])
            return .resolve(prior, settings: settings, learned: learned)
        }
    }

    /// Touch thresholds the configuration gets wrong fall back to the defaults with a warning (the palm
    /// size, which cannot be wrong once parsed, stays).
    mutating func tracking(for device: TouchDevice, node: String) -> TrackerSettings {
        do {
            return try configuration.tracking(for: device).settings
        } catch {
            notices.append(.warning("\(node): \(error); using the default touch thresholds"))
            return TrackerSettings(palmSize: configuration.palmSize(for: device.description).size)
        }
    }

    /// A device disappears (unplugged, `ENODEV`, a replay that ended): its contacts are cancelled and
    /// open peeks dismissed before clients hear it is gone.
    public mutating func removeDevice(_ id: Int) {
        guard let i = devices.firstIndex(where: { $0.id == id }) else { return }
        if let t = devices[i].lastTime {
            devices[i].pipeline.cancelAll(at: t)
            route(device: i)
        }
        let info = devices[i].info
        remember(devices[i])
        devices.remove(at: i)
        notices.append(.info("device \(id) removed: \(info.node)"))
        broadcastDevice(.removed, info)
    }

    /// Events read from a device, in order. Long-press deadlines due before an event are ticked first.
    public mutating func handle(device id: Int, events: ArraySlice<InputEvent>) {
        guard let i = devices.firstIndex(where: { $0.id == id }) else { return }
        for e in events {
            devices[i].pipeline.feed(e)
            devices[i].lastTime = e.time
            let p = devices[i].pipeline
            if !p.outputs.isEmpty || !p.transitions.isEmpty || p.deviceChanged
                || p.force.learnedRevision != devices[i].savedRevision
            {
                route(device: i)
            }
        }
    }

    /// After `SYN_DROPPED` and a libevdev resync: the device's true slot state.
    public mutating func resync(
        device id: Int, slots: [(trackingID: Int32, x: Int32, y: Int32, pressure: Int32)], at time: Timestamp
    ) {
        guard let i = devices.firstIndex(where: { $0.id == id }) else { return }
        notices.append(.info("device \(id): SYN_DROPPED, resynced"))
        devices[i].pipeline.resync(slots: slots, at: time)
        devices[i].lastTime = time
        route(device: i)
    }

    /// The earliest long-press deadline of a device, on that device's clock.
    public func nextDeadline(device id: Int) -> Timestamp? {
        devices.first { $0.id == id }?.pipeline.nextDeadline
    }

    /// The loop's timer reached `now` on the device's clock.
    public mutating func tick(device id: Int, now: Timestamp) {
        guard let i = devices.firstIndex(where: { $0.id == id }) else { return }
        devices[i].pipeline.tick(now)
        route(device: i)
    }

    /// Sends a device pipeline's outputs to the clients that want them.
    mutating func route(device i: Int) {
        let deviceID = devices[i].id
        for t in devices[i].pipeline.transitions {
            notices.append(.debug("device \(deviceID) contact \(t.contact): \(t.from) → \(t.input) → \(t.to)\(t.impossible ? " (impossible)" : "")"))
        }
        for e in devices[i].pipeline.outputs {
            switch e.kind {
            case .touch(let phase):
                // Ownership is decided where the touch begins, in the frame it begins.
                if phase == .began, let r = regions.hit(x: e.screenX, y: e.screenY) {
                    devices[i].owners[e.contact] = RegionOwner(r)
                }
                broadcast(e, device: deviceID, touch: true)
                if phase == .ended || phase == .cancelled, devices[i].owners.removeValue(forKey: e.contact) != nil,
                   devices[i].owners.isEmpty, regions.isEmpty {
                    updateTouchReporting()  // the last owned touch of regions that are gone: stop if nobody listens
                }
            case .gesture(let g):
                if let owner = devices[i].owners[e.contact] {
                    routeOwned(g, e, owner, device: i)
                } else {
                    broadcast(e, device: deviceID, touch: false)
                }
            }
        }
        devices[i].pipeline.clearOutputs()
        if devices[i].pipeline.takeDeviceChange() {
            let info = devices[i].info
            let why = devices[i].pipeline.forceUnavailableReason.map { " (\($0.explanation))" } ?? ""
            notices.append(.info("device \(deviceID): force \(info.forceCapability.rawValue), maximum \(DecimalText.fixed(info.maximumPossibleForce, 2))\(why)"))
            broadcastDevice(.changed, info)
        }
        offerLearnedSave(i)
    }

    /// Hands a persisting device's learner to the loop when it learned something new.
    mutating func offerLearnedSave(_ i: Int) {
        let revision = devices[i].pipeline.force.learnedRevision
        guard revision != devices[i].savedRevision else { return }
        devices[i].savedRevision = revision
        guard devices[i].persistsLearning, let key = devices[i].learningKey,
              let learner = devices[i].pipeline.force.learner else { return }
        if let j = learnedSaves.firstIndex(where: { $0.key == key }) {
            learnedSaves[j].learner = learner
        } else {
            learnedSaves.append(LearnedSave(key: key, learner: learner))
        }
    }

    /// A device goes: what it learned is kept for a replug in this run.
    mutating func remember(_ entry: DeviceEntry) {
        guard let key = entry.learningKey, let learner = entry.pipeline.force.learner else { return }
        rememberedLearning.removeAll { $0.key == key }
        rememberedLearning.append((key, learner))
        if rememberedLearning.count > Self.rememberedDevices { rememberedLearning.removeFirst() }
    }


    /// Sends an event to every client subscribed to its kind and device, encoding it only if one is.
    mutating func broadcast(_ e: PressureEvent, device deviceID: Int, touch: Bool) {
        var encoded = false
        for c in clients.indices where !clients[c].closing {
            guard let sub = clients[c].subscription, sub.includes(device: deviceID) else { continue }
            guard touch ? sub.touches : sub.gestures else { continue }
            if !encoded {
                scratch.removeAll(keepingCapacity: true)
                WireFormat.append(e, to: &scratch)
                encoded = true
            }
            enqueue(c, droppable: touch)
        }
    }

    /// Touch events cost an encoding per frame: a pipeline reports them only while someone listens.
    mutating func updateTouchReporting() {
        for i in devices.indices {
            let id = devices[i].id
            // Regions need to see every touch begin, to decide who owns it; a touch a region owns must be
            // seen to end, or its owner entry would outlive it (its region may be gone already).
            devices[i].pipeline.reportsTouches = !regions.isEmpty || !devices[i].owners.isEmpty || clients.contains {
                !$0.closing && ($0.subscription.map { $0.touches && $0.includes(device: id) } ?? false)
            }
        }
    }

    /// Queues `scratch` for client at index `c`.
    mutating func enqueue(_ c: Int, droppable: Bool) {
        switch clients[c].queue.append(scratch[...], droppable: droppable) {
        case .queued:
            if !clients[c].markedWritable {
                clients[c].markedWritable = true
                writable.append(clients[c].id)
            }
        case .dropped:
            break
        case .overflow:
            var line: [UInt8] = []
            ServerMessage.error(
                ProtocolError(id: nil, code: .tooSlow, message: "the client stopped reading; disconnected", fatal: true)
            ).append(to: &line)
            close(c, reason: "too slow: \(clients[c].queue.pendingCount) bytes unread", finalLine: line)
        }
    }

    mutating func close(_ c: Int, reason: String, finalLine: [UInt8]) {
        guard !clients[c].closing else { return }
        clients[c].closing = true
        disconnects.append(Disconnect(client: clients[c].id, reason: reason, finalLine: finalLine))
        notices.append(.info("client \(clients[c].id) disconnected: \(reason)"))
        updateTouchReporting()
    }
}

extension Hub {
    /// Whether any client has subscribed (a replay waits for one).
    public var hasSubscriber: Bool { clients.contains { !$0.closing && $0.subscription != nil } }
}

extension Hub {
    /// The most bytes any client has waiting: a replay at speed 0 goes only as fast as its slowest reader.
    public var largestBacklog: Int {
        clients.lazy.filter { !$0.closing }.map { $0.queue.pendingCount }.max() ?? 0
    }
}
