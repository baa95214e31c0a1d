import PressureProtocol
import PressureWebSocket

/// The frames waiting for one browser: the daemon's ``ClientQueue`` (the same two limits a Unix client
/// has), holding whole frames. Past half the capacity a contact's `moved` is coalesced (the newest
/// replacing the one queued; `began`, `ended` and `cancelled` always go in) and what was left out is
/// counted per contact; a `dropped` notice naming them follows once the browser catches up, exactly as the
/// daemon tells its own clients. A line that must arrive and does not fit means the browser stopped
/// reading.
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
        queue = ClientQueue(capacity: capacity + Self.finalReserve, touchLimit: capacity / 2, reserve: Self.finalReserve)
        scratch.reserveCapacity(1024)
    }

    public var pendingCount: Int { queue.pendingCount }
    public var isEmpty: Bool { queue.isEmpty }
    /// Touch events left out and not yet reported.
    public var lostTouches: Int { queue.lostTouches }

    /// A text frame carrying `payload`, a line of `kind` (``DaemonLineKind``; `.other` for what must arrive).
    public mutating func text(_ payload: ArraySlice<UInt8>, _ kind: ClientQueue.Kind = .other) -> ClientQueue.Outcome {
        scratch.removeAll(keepingCapacity: true)
        FrameEncoder.append(opcode: .text, payload: payload, to: &scratch)
        return queue.append(scratch[...], kind)
    }

    /// A control frame (ping, pong, close: at most 127 bytes); pongs and pings are dropped rather than
    /// overflow (the peer repeats pings), a close always fits in the reserve.
    @discardableResult
    public mutating func control(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> ClientQueue.Outcome {
        scratch.removeAll(keepingCapacity: true)
        FrameEncoder.append(opcode: opcode, payload: payload, to: &scratch)
        if opcode != .close && queue.pendingCount + scratch.count > capacity { return .dropped }
        queue.appendFinal(scratch[...])
        return .queued
    }

    /// A last text frame before the close (a fatal `error`), in the reserve.
    public mutating func final(_ payload: [UInt8]) {
        scratch.removeAll(keepingCapacity: true)
        FrameEncoder.append(opcode: .text, payload: payload, to: &scratch)
        queue.appendFinal(scratch[...])
    }

    /// Writes what `write` takes; once the queue is below a quarter full again, queues the `dropped`
    /// notice for the touches it lost (unless `closing`: nothing follows a close frame).
    public mutating func drain(closing: Bool, _ write: (UnsafeRawBufferPointer) -> Int) {
        queue.drain(write)
        guard !closing, queue.lostTouches > 0, queue.pendingCount < capacity / 4, let lost = queue.takeLosses()
        else { return }
        var line: [UInt8] = []
        ServerMessage.dropped(lost).append(to: &line)
        line.removeLast()  // the newline: a WebSocket message is the line itself
        _ = text(line[...])
    }
}
