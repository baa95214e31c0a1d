import PressureCore

/// The devices served: each one's pipeline and what the hub keeps beside it (its node, udev properties,
/// clock, what it learned and whether that is saved), set up from the configuration; and what devices
/// that went away had learned, so a replug in the same run carries on from there.
struct DeviceTable: Sendable {
    struct Device: Sendable {
        let id: Int
        let node: String
        let udev: UdevDeviceProperties
        var pipeline: TouchPipeline
        /// What a replayed log's reader assumed of its device (``DeviceInfo/assumed``).
        let assumed: [String]
        /// The device a learned average is kept for (devices with pressure).
        let learningKey: LearnedDeviceKey?
        /// Whether what it learns is saved (the loop decides: not for virtual or replayed devices).
        let persistsLearning: Bool
        /// The learner revision last handed out for saving.
        var savedRevision: Int
        /// How its event times stand to the hub's clock.
        var clock: DeviceClock
        /// The time of its last event: where its contacts are cancelled when it goes.
        var lastTime: Timestamp?
        /// Its frames' latency figures (`status`, `pressurectl metrics`).
        var latency = FrameLatency()

        var info: DeviceInfo {
            var i = DeviceInfo(id: id, node: node, pipeline: pipeline)
            i.assumed = assumed
            return i
        }

        /// Whether the last event gave the hub something to do: outputs to route, transitions to log, a
        /// device change to announce, something learned to save.
        var hasNews: Bool {
            !pipeline.outputs.isEmpty || !pipeline.transitions.isEmpty || pipeline.deviceChanged
                || pipeline.force.learnedRevision != savedRevision
        }
    }

    /// How many devices that went away are remembered.
    static let rememberedDevices = 32

    /// The devices, in the order they came; mutated in place (a copy of a pipeline would copy its buffers).
    var entries: [Device] = []
    /// What devices that went away had learned (newest last; bounded).
    private var remembered: [(key: LearnedDeviceKey, learner: AverageTouchLearner)] = []
    private var nextID = 1

    subscript(i: Int) -> Device { entries[i] }
    var count: Int { entries.count }
    var ids: [Int] { entries.map(\.id) }
    var infos: [DeviceInfo] { entries.map(\.info) }
    func index(of id: Int) -> Int? { entries.firstIndex { $0.id == id } }

    /// Fingers down, across every device.
    var liveContacts: Int { entries.reduce(0) { $0 + $1.pipeline.liveContactCount } }

    /// The earliest long-press deadline of any device, on the hub's clock.
    var nextDeadline: Timestamp? {
        var earliest: Timestamp? = nil
        // By index: each device read in place, not copied out of the table every wake-up.
        for i in entries.indices {
            guard let due = entries[i].pipeline.nextDeadline, let t = entries[i].clock.hubTime(of: due) else { continue }
            earliest = .earliest(earliest, t)
        }
        return earliest
    }

    /// A device appears; nil (and a notice) when it is not a touch device. What this run remembers of it
    /// wins over `learned` (what the loop read from its state file), being newer.
    mutating func add(
        node: String, description: DeviceDescription, udev: UdevDeviceProperties, learned: AverageTouchLearner?,
        persistsLearning: Bool, assumed: [String], clock: DeviceClock, settings: GestureSettings,
        configuration: Configuration, recordsTransitions: Bool, _ work: inout Hub.Work
    ) -> Int? {
        let device: TouchDevice
        do { device = try TouchDevice(description) } catch {
            work.notices.append(.info("\(node): \(error)"))
            return nil
        }
        let id = nextID
        nextID += 1
        for problem in udev.problems { work.notices.append(.warning("\(node): ignoring udev property \(problem)")) }
        let key = LearnedDeviceKey(device)
        let rememberedLearner = key.flatMap { k in remembered.last { $0.key == k }?.learner }
        let setup = Self.setup(of: device, node: node, udev: udev, settings, configuration, &work)
        var pipeline = setup.pipeline(deviceID: id, learned: rememberedLearner ?? learned)
        pipeline.recordsTransitions = recordsTransitions
        entries.append(Device(
            id: id, node: node, udev: udev, pipeline: pipeline, assumed: assumed, learningKey: key,
            persistsLearning: persistsLearning, savedRevision: pipeline.force.learnedRevision, clock: clock))
        return id
    }

    /// The device at index `i` goes; what it learned is kept for a replug in this run.
    mutating func remove(at i: Int) {
        let entry = entries.remove(at: i)
        guard let key = entry.learningKey, let learner = entry.pipeline.force.learner else { return }
        remembered.removeAll { $0.key == key }
        remembered.append((key, learner))
        if remembered.count > Self.rememberedDevices { remembered.removeFirst() }
    }

    /// New settings or configuration for the device at index `i`: its pipeline takes them at once (a
    /// learning device carries on with its learner). Returns whether apps should hear of the device anew
    /// (its force capability, range or screen changed).
    mutating func reconfigure(_ i: Int, _ configuration: Configuration, settings: GestureSettings, _ work: inout Hub.Work) -> Bool {
        let before = entries[i].info
        let device = entries[i].pipeline.device
        let node = entries[i].node
        let udev = entries[i].udev
        let setup = Self.setup(of: device, node: node, udev: udev, settings, configuration, &work)
        entries[i].pipeline.apply(settings: settings, force: setup.force(learned: nil), tracking: setup.tracking)
        entries[i].pipeline.setScreen(setup.screen)
        let after = entries[i].info
        return before.forceCapability != after.forceCapability
            || before.maximumPossibleForce != after.maximumPossibleForce || before.screen != after.screen
    }

    /// Hands the learner of the device at index `i` to the loop for saving when it learned something new
    /// (and it persists); a save not yet taken is replaced by the newer one.
    mutating func offerLearnedSave(_ i: Int, _ work: inout Hub.Work) {
        let revision = entries[i].pipeline.force.learnedRevision
        guard revision != entries[i].savedRevision else { return }
        entries[i].savedRevision = revision
        guard entries[i].persistsLearning, let key = entries[i].learningKey,
              let learner = entries[i].pipeline.force.learner else { return }
        if let j = work.learnedSaves.firstIndex(where: { $0.key == key }) {
            work.learnedSaves[j].learner = learner
        } else {
            work.learnedSaves.append(Hub.LearnedSave(key: key, learner: learner))
        }
    }

    /// The device (every device: nil) forgets what it learned and learns afresh; its state file goes too.
    /// Returns the ids of those that had something to forget (devices whose average is configured, or
    /// the prior with learning off, have not).
    mutating func resetLearning(device: Int?, _ work: inout Hub.Work) -> [Int] {
        var reset: [Int] = []
        for i in entries.indices where device == nil || entries[i].id == device {
            guard entries[i].pipeline.resetLearning() else { continue }
            reset.append(entries[i].id)
            entries[i].savedRevision = entries[i].pipeline.force.learnedRevision
            guard let key = entries[i].learningKey else { continue }
            remembered.removeAll { $0.key == key }
            if entries[i].persistsLearning, let learner = entries[i].pipeline.force.learner {
                work.learnedSaves.removeAll { $0.key == key }
                work.learnedSaves.append(Hub.LearnedSave(key: key, learner: learner, reset: true))
            }
        }
        return reset
    }

    /// The device's setup under the configuration; what the configuration gets wrong falls back to the
    /// defaults with a warning: the device is still served.
    static func setup(
        of device: TouchDevice, node: String, udev: UdevDeviceProperties, _ settings: GestureSettings,
        _ configuration: Configuration, _ work: inout Hub.Work
    ) -> DeviceSetup {
        let setup = DeviceSetup(device: device, configuration: configuration, settings: settings, udev: udev)
        for notice in setup.notices { work.notices.append(.warning("\(node): \(notice)")) }
        return setup
    }
}
