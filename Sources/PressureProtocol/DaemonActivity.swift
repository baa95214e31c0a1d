/// What the daemon has done since it started, in a `status` reply beside what it holds (``DaemonStatus``):
/// counts that only grow, for operators and for tests that must see that the loop does not spin. Unlike
/// the held counts they never return to a baseline, so they travel apart from them (`activity`).
public struct DaemonActivity: Hashable, Sendable {
    /// Turns of the event loop: each is one `epoll_wait` that returned. An idle daemon does not turn.
    public var wakeups: Int
    /// Connections accepted (refused ones included: they were accepted to be told).
    public var accepted: Int
    /// Of those, connections turned away with `too-many-clients`: at `MaxClients`, or when no file
    /// descriptor was left for them.
    public var refused: Int
    /// `accept4` calls that failed, for any reason but "nothing is waiting" (`EMFILE` and `ENFILE`
    /// included; a client that gave up before it was taken, `ECONNABORTED`, too).
    public var acceptErrors: Int

    public init(wakeups: Int = 0, accepted: Int = 0, refused: Int = 0, acceptErrors: Int = 0) {
        self.wakeups = wakeups
        self.accepted = accepted
        self.refused = refused
        self.acceptErrors = acceptErrors
    }

    /// The counts by name, in the order the protocol document shows them.
    public var fields: KeyValuePairs<String, Int> {
        ["wakeups": wakeups, "accepted": accepted, "refused": refused, "acceptErrors": acceptErrors]
    }

    /// `{"wakeups":812,"accepted":3,…}`
    public func append(to out: inout [UInt8]) { JSONWriter.appendCounts(fields, to: &out) }
}

extension DaemonActivity {
    /// Decodes the `activity` object of a `status` reply (``ServerMessage``); every count is required,
    /// keys it does not know are passed over.
    init(_ f: MessageFields) throws(MessageDecodingError) {
        self.init(
            wakeups: try f.int("wakeups"), accepted: try f.int("accepted"), refused: try f.int("refused"),
            acceptErrors: try f.int("acceptErrors"))
    }
}
