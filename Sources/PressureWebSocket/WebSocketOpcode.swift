/// The frame opcodes of RFC 6455 §5.2. Any other value is a protocol error (``WebSocketProtocolError``).
public enum WebSocketOpcode: UInt8, Sendable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Control frames (close, ping, pong) may arrive between the fragments of a message, must not be
    /// fragmented themselves and carry at most 125 bytes (§5.5).
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
