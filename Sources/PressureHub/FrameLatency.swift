import PressureCore

/// One device's latency telemetry (``DeviceLatency``): from when a frame happened to its lines being
/// queued for clients (``queued(now:)``) and written to every client (``written(now:)``). Pure: it is
/// handed readings of the loop's clock; nothing allocates after ``init()``, and frames past ``capacity``
/// are counted as unmeasured.
///
/// Delivery is the moment no client holds unwritten bytes: exact while every client keeps up, an upper
/// bound while one falls behind; the exact figure would need a mark per client per frame.
struct FrameLatency: Sendable {
    /// Frames that may wait at once to be queued, and, apart, to be delivered.
    static let capacity = 256

    private(set) var queue = LatencyHistogram()
    private(set) var delivery = LatencyHistogram()
    private(set) var unmeasured = 0
    /// Frames fed and not yet queued: their times, and whether they gave a client a line.
    private var fed: [(time: Int64, output: Bool)] = []
    /// Frames queued with a line for some client, not yet written to all.
    private var undelivered: [Int64] = []
    /// Whether the frame being fed has given a client a line so far.
    private var frameHasOutput = false

    init() {
        fed.reserveCapacity(Self.capacity)
        undelivered.reserveCapacity(Self.capacity)
    }

    /// Whether ``queued(now:)`` has frames to measure.
    var awaitsQueue: Bool { !fed.isEmpty }
    /// Whether ``written(now:)`` has frames to measure.
    var awaitsDelivery: Bool { !undelivered.isEmpty }

    /// Lines of the frame being fed were queued for some client.
    mutating func noteOutput() { frameHasOutput = true }

    /// A frame ended; `time` is when it happened on the loop's clock, nil where it falls on none.
    mutating func frameEnded(at time: Timestamp?) {
        defer { frameHasOutput = false }
        guard let time, fed.count < Self.capacity else {
            unmeasured += 1
            return
        }
        fed.append((time.microseconds, frameHasOutput))
    }

    /// What was fed has been queued, at `now`.
    mutating func queued(now: Timestamp) {
        for f in fed {
            queue.record(microseconds: now.microseconds - f.time)
            guard f.output else { continue }
            if undelivered.count < Self.capacity { undelivered.append(f.time) } else { unmeasured += 1 }
        }
        fed.removeAllKeepingCapacity()
    }

    /// Every client's queue has been written out, at `now`.
    mutating func written(now: Timestamp) {
        for t in undelivered { delivery.record(microseconds: now.microseconds - t) }
        undelivered.removeAllKeepingCapacity()
    }

    /// The figures, as `status` reports them.
    func report(device: Int, node: String) -> DeviceLatency {
        DeviceLatency(device: device, node: node, queue: queue, delivery: delivery, unmeasured: unmeasured)
    }
}
