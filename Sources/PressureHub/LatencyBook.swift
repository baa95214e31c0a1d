import PressureCore

/// Latency telemetry across devices (``FrameLatency``): the loop reads its clock and says when what it
/// fed is queued and when it is written; the book keeps the figures of the devices served (in their
/// table entries) and of devices gone, which may still have their last frames on the way and are still
/// wanted by the next scrape.
struct LatencyBook: Sendable {
    /// How many devices that went away keep their figures (oldest forgotten first).
    static let retiredKept = 16

    /// The figures of a device that went away, still taking the deliveries of its last frames.
    struct Retired: Sendable {
        let device: Int
        let node: String
        var latency: FrameLatency
    }

    /// Devices gone, oldest first (``retiredKept`` at most).
    private(set) var retired: [Retired] = []

    /// Whether frames wait to be told they are queued.
    func awaitsQueueTime(_ devices: DeviceTable) -> Bool { devices.entries.contains { $0.latency.awaitsQueue } }

    /// The frames fed since the last call have their lines queued, at `now` on the loop's clock.
    func framesQueued(now: Timestamp, _ devices: inout DeviceTable) {
        for i in devices.entries.indices where devices.entries[i].latency.awaitsQueue {
            devices.entries[i].latency.queued(now: now)
        }
    }

    /// Whether frames wait to be written to clients, of devices served or gone.
    func awaitsDelivery(_ devices: DeviceTable) -> Bool {
        devices.entries.contains { $0.latency.awaitsDelivery } || retired.contains { $0.latency.awaitsDelivery }
    }

    /// Every frame queued so far has been delivered (no client holds unwritten bytes) at `now`.
    mutating func framesDelivered(now: Timestamp, _ devices: inout DeviceTable) {
        for i in devices.entries.indices where devices.entries[i].latency.awaitsDelivery {
            devices.entries[i].latency.written(now: now)
        }
        for i in retired.indices where retired[i].latency.awaitsDelivery {
            retired[i].latency.written(now: now)
        }
    }

    /// Each device's figures, as `status` reports them: the devices served, then those gone.
    func report(_ devices: DeviceTable) -> [DeviceLatency] {
        devices.entries.map { $0.latency.report(device: $0.id, node: $0.node) }
            + retired.map { $0.latency.report(device: $0.device, node: $0.node) }
    }

    /// A device goes: its figures are kept, bounded.
    mutating func retire(_ device: DeviceTable.Device) {
        retired.append(Retired(device: device.id, node: device.node, latency: device.latency))
        if retired.count > Self.retiredKept { retired.removeFirst() }
    }
}
