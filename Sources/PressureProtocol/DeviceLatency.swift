/// One device's latency figures as `status` reports them (`docs/protocol.md`, `docs/metrics.md`): from
/// the moment a frame happened (the kernel's event time; for a replay, when the replay handed it over) to
/// its gestures and touches being queued for clients, and to the last client's write of them completing.
/// Plain data: the daemon fills it, `pressurectl metrics` turns it into OpenMetrics text.
public struct DeviceLatency: Hashable, Sendable {
    public var device: Int
    /// The device's node (`/dev/input/event5`, `replay:PATH`): a label steadier than the id across replugs.
    public var node: String
    /// Every frame, output or none: frame time to queued.
    public var queue: LatencyHistogram
    /// Frames that gave some client a line: frame time to that line written to every client.
    public var delivery: LatencyHistogram
    /// Frames left out of the figures: more waited at once than the daemon keeps track of (a client far
    /// behind), or their time falls on no clock the daemon has.
    public var unmeasured: Int

    public init(device: Int, node: String, queue: LatencyHistogram = LatencyHistogram(),
                delivery: LatencyHistogram = LatencyHistogram(), unmeasured: Int = 0) {
        self.device = device
        self.node = node
        self.queue = queue
        self.delivery = delivery
        self.unmeasured = unmeasured
    }

    /// `{"device":1,"node":"/dev/input/event5","queue":{…},"delivery":{…},"unmeasured":0}`
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"device":"#.utf8)
        JSONWriter.appendInteger(device, to: &out)
        JSONWriter.appendKey("node", to: &out)
        JSONWriter.appendString(node, to: &out)
        JSONWriter.appendKey("queue", to: &out)
        queue.append(to: &out)
        JSONWriter.appendKey("delivery", to: &out)
        delivery.append(to: &out)
        JSONWriter.appendKey("unmeasured", to: &out)
        JSONWriter.appendInteger(unmeasured, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Decodes one entry of a `status` reply's `latency` list; unknown keys are ignored.
    public init(json: JSONValue) throws(MessageDecodingError) {
        try self.init(MessageFields(json, what: "a device's latency"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        self.init(
            device: try f.int("device"), node: try f.string("node"), queue: try LatencyHistogram(try f.object("queue")),
            delivery: try LatencyHistogram(try f.object("delivery")), unmeasured: try f.int("unmeasured"))
    }

    /// One line for people: `1240 frames queued, mean 147 µs, p99 ≤ 500 µs; 1240 delivered, mean 243 µs,
    /// p99 ≤ 1 ms; 0 unmeasured`.
    public var summary: String {
        func describe(_ h: LatencyHistogram) -> String {
            guard h.count > 0 else { return "" }
            let mean = h.sumMicroseconds / Int64(clamping: h.count)
            return ", mean \(mean) µs, p99 " + LatencyHistogram.quantileText(h, 0.99)
        }
        return "\(queue.count) frames queued\(describe(queue)); \(delivery.count) delivered\(describe(delivery)); \(unmeasured) unmeasured"
    }
}
