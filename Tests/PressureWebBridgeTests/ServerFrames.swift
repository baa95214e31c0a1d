@testable import PressureWebBridge
@testable import PressureWebSocket

/// What a browser would read from a queue: its bytes drained and decoded as server frames into messages.
func drainedMessages(_ queue: inout BrowserQueue, closing: Bool) -> [MessageAssembler.Message] {
    var bytes: [UInt8] = []
    queue.drain(closing: closing) { b in
        bytes.append(contentsOf: b)
        return b.count
    }
    var d = FrameDecoder(decoding: .server, maximumPayload: 1 << 20)
    d.append(bytes)
    var a = MessageAssembler(maximumMessage: 1 << 20)
    var out: [MessageAssembler.Message] = []
    while let f = try? d.next() { if let m = try? a.receive(f) { out.append(m) } }
    return out
}
