import PressureProtocol
import PressureWebSocket

/// The frames waiting for one browser: the daemon's ``ClientQueue`` (the same two limits a Unix client
/// has), holding whole frames. Touch events are dropped and counted past half the capacity and a
/// `dropped` notice follows once the browser catches up, exactly as the daemon tells its own clients;
/// a gesture that does not fit means the browser stopped reading.
///
/// A little room is kept beyond the capacity for the last frames (an error and the close frame), so a
/// browser that is disconnected for being slow is still told why when it reads again.
public struct BrowserQueue: Sendable {
    private var queue: ClientQueue
    /// Past this, a frame that must not be dropped overflows.
    public let capacity: Int
    static let finalReserve = 512
    private var scratch: [UInt8] = []

    public init(capacity: Int) {
        self.capacity = capacity
        queue = ClientQueue(capacity: capacity + Self.finalReserve, touchLimit: capacity / 2)
        scratch.reserveCapacity(1024)
    }

    public var pendingCount: Int { queue.pendingCount }
    public var isEmpty: Bool { queue.isEmpty }
    /// Touch events dropped and not yet reported.
    public var droppedTouches: Int { queue.droppedTouches }

    /// A text frame carrying `payload`; `droppable` for touch events.
    public mutating func text(_ payload: ArraySlice<UInt8>, droppable: Bool) -> ClientQueue.Outcome {
        scratch.removeAll(keepingCapacity: true)
        FrameEncoder.append(opcode: .text, payload: payload, to: &scratch)
        if !droppable && queue.pendingCount + scratch.count > capacity { return .overflow }
        return queue.append(scratch[...], droppable: droppable)
    }

    /// A control frame (ping, pong, close: at most 127 bytes); pongs and pings are dropped rather than
    /// overflow (the peer repeats pings), a close always fits in the reserve.
    @discardableResult
    public mutating func control(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> ClientQueue.Outcome {
        scratch.removeAll(keepingCapacity: true)
        FrameEncoder.append(opcode: opcode, payload: payload, to: &scratch)
        if opcode != .close && queue.pendingCount + scratch.count > capacity { return .dropped }
        return queue.append(scratch[...], droppable: false)
    }

    /// A last text frame before the close (a fatal `error`), in the reserve.
    public mutating func final(_ payload: [UInt8]) {
        scratch.removeAll(keepingCapacity: true)
        FrameEncoder.append(opcode: .text, payload: payload, to: &scratch)
        _ = queue.append(scratch[...], droppable: false)
    }

    /// Writes what `write` takes; once the queue is below a quarter full again, queues the `dropped`
    /// notice for the touches it lost (unless `closing`: nothing follows a close frame).
    public mutating func drain(closing: Bool, _ write: (UnsafeRawBufferPointer) -> Int) {
        queue.drain(write)
        guard !closing, queue.droppedTouches > 0, queue.pendingCount < capacity / 4 else { return }
        var line: [UInt8] = []
        ServerMessage.dropped(touches: queue.takeDroppedCount()).append(to: &line)
        line.removeLast()  // the newline: a WebSocket message is the line itself
        _ = text(line[...], droppable: false)
    }
}
