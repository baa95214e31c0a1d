import PressureCore

/// What the hub asks of the loop after each time the loop fed it, in one value: write to these clients,
/// close those, log the notices, save what devices learned, read the configuration for a `reload`. The
/// hub gathers it as it goes and hands it over whole with ``Hub/takeWork(_:)``.
public struct HubWork: Sendable {
    /// Something worth a log line; the core does not log, the loop does.
    public enum Notice: Equatable, Sendable {
        /// About what one client did (connected, hung up, was refused or disconnected, set quick actions
        /// for yet another app): a client can repeat it at will, so the loop writes these at info within
        /// a budget (``ClientActivityLog``) and the rest at debug, with a summary.
        case client(String)
        /// As ``client(_:)``, at warning within the budget.
        case clientWarning(String)
        case info(String)
        case warning(String)
        case debug(String)
    }

    /// A client the loop must close: what it was owed is written (its last line, where it is being
    /// disconnected, the error that says why).
    public struct Disconnect: Equatable, Sendable {
        public var client: Int
        public var reason: String
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

    /// Clients with bytes newly queued (each once): the loop writes what ``Hub/drain(client:_:)`` gives.
    public var writable: [Int] = []
    public var disconnects: [Disconnect] = []
    public var notices: [Notice] = []
    /// Learned averages to save (the newest for each device first seen changing).
    public var learnedSaves: [LearnedSave] = []
    /// Clients that asked for `reload`, with their request ids: the loop reads the files and calls
    /// ``Hub/reload(_:answering:)`` or ``Hub/reloadFailed(_:answering:)``, whose answers come out
    /// with the next work.
    public var reloads: [ReloadRequest] = []
    /// Haptic effects to play at once, in order (``HapticPlay``); the loop writes them before any client line.
    public var haptics: [HapticPlay] = []
    /// Actions that fired (``FiredAction``), in order: the loop writes their events to the device's
    /// action pointer or keyboard with the haptics, before any client line.
    public var actions: [FiredAction] = []

    /// Room for a few of each up front: the hub and the loop swap two values, and one of them is
    /// filled only now and then (what the loop's own writes and closes cause), so its first growth
    /// would otherwise come at some moment mid-run instead of at start-up.
    public init() {
        writable.reserveCapacity(8)
        disconnects.reserveCapacity(4)
        notices.reserveCapacity(8)
        learnedSaves.reserveCapacity(2)
        reloads.reserveCapacity(2)
        haptics.reserveCapacity(8)
    }

    /// Nothing to do: the loop may wait.
    public var isEmpty: Bool {
        writable.isEmpty && disconnects.isEmpty && notices.isEmpty && learnedSaves.isEmpty && reloads.isEmpty
            && haptics.isEmpty && actions.isEmpty
    }

    /// Empties every list, keeping their storage (the loop reuses one value).
    public mutating func removeAll() {
        writable.removeAllKeepingCapacity()
        disconnects.removeAllKeepingCapacity()
        notices.removeAllKeepingCapacity()
        learnedSaves.removeAllKeepingCapacity()
        reloads.removeAllKeepingCapacity()
        haptics.removeAllKeepingCapacity()
        actions.removeAllKeepingCapacity()
    }
}
