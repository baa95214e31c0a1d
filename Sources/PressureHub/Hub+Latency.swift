import PressureCore

/// Latency telemetry (``FrameLatency``): the loop reads its clock and says when what it fed is queued and
/// when it is written; the hub keeps the figures per device and reports them in `status`.
extension Hub {
    /// Whether frames wait for ``framesQueued(now:)``: the loop reads its clock only then.
    public var awaitsQueueTime: Bool { devices.entries.contains { $0.latency.awaitsQueue } }

    /// The frames fed since the last call have their lines queued for clients: `now` on the loop's clock.
    public mutating func framesQueued(now: Timestamp) {
        for i in devices.entries.indices where devices.entries[i].latency.awaitsQueue {
            devices.entries[i].latency.queued(now: now)
        }
    }

    /// Whether frames wait to be written to clients: the loop calls ``framesWritten(now:)`` then, after
    /// writing.
    public var awaitsDelivery: Bool {
        devices.entries.contains { $0.latency.awaitsDelivery } || retiredLatency.contains { $0.latency.awaitsDelivery }
    }

    /// The loop has written what it could, at `now`: if no client holds unwritten bytes, every frame
    /// queued so far has been delivered (else they wait for a later call).
    public mutating func framesWritten(now: Timestamp) {
        guard clients.queuedBytes == 0 else { return }
        for i in devices.entries.indices where devices.entries[i].latency.awaitsDelivery {
            devices.entries[i].latency.written(now: now)
        }
        // A device gone (a replay ended) may still have its last frames on their way.
        for i in retiredLatency.indices where retiredLatency[i].latency.awaitsDelivery {
            retiredLatency[i].latency.written(now: now)
        }
    }

    /// The figures of a device that went away, still taking the deliveries of its last frames.
    struct RetiredLatency: Sendable {
        let device: Int
        let node: String
        var latency: FrameLatency
    }

    /// How many devices that went away keep their figures in `status` (oldest forgotten first): a replay
    /// that finished, or a panel unplugged, is still seen by the next scrape.
    public static let retiredLatencyKept = 16

    /// Each device's latency figures, as `status` reports them: the devices served, then those gone.
    public var latency: [DeviceLatency] {
        devices.entries.map { $0.latency.report(device: $0.id, node: $0.node) }
            + retiredLatency.map { $0.latency.report(device: $0.device, node: $0.node) }
    }

    /// The device at index `i` goes: its figures are kept, bounded.
    mutating func retireLatency(device i: Int) {
        let d = devices.entries[i]
        retiredLatency.append(RetiredLatency(device: d.id, node: d.node, latency: d.latency))
        if retiredLatency.count > Self.retiredLatencyKept { retiredLatency.removeFirst() }
    }
}
