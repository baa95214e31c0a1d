/// Why the bytes a peer sent are not a WebSocket stream we accept. Each case names the close code the
/// connection is failed with (RFC 6455 §7.1.7), so the owner only has to send it.
public enum WebSocketProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// RSV1–3 set with no extension negotiated (§5.2).
    case reservedBitsSet(UInt8)
    case unknownOpcode(UInt8)
    /// A client frame without a mask (§5.1: the server must fail the connection).
    case unmaskedClientFrame
    /// A server frame with a mask (§5.1: the client must fail the connection).
    case maskedServerFrame
    /// A close, ping or pong with FIN clear.
    case fragmentedControlFrame(WebSocketOpcode)
    /// A control frame with more than 125 bytes of payload.
    case controlFrameTooLong(Int)
    /// A 16- or 64-bit length where a shorter encoding would do (§5.2: "the minimal number of bytes MUST be
    /// used"), or a 64-bit length with its top bit set.
    case invalidLength(UInt64)
    /// A continuation frame with no message begun.
    case unexpectedContinuation
    /// A new text or binary frame while a fragmented message is still open.
    case expectedContinuation
    /// A text message (or close reason) that is not UTF-8.
    case invalidUTF8
    /// A frame or message longer than the configured cap.
    case messageTooBig(limit: Int)
    /// A close payload of one byte (a code needs two).
    case closePayloadTooShort
    case invalidCloseCode(UInt16)

    /// The code to close with: 1009 for size, 1007 for bad UTF-8, 1002 for everything else.
    public var closeCode: WebSocketCloseCode {
        switch self {
        case .messageTooBig: return .messageTooBig
        case .invalidUTF8: return .invalidPayload
        case .reservedBitsSet, .unknownOpcode, .unmaskedClientFrame, .maskedServerFrame, .fragmentedControlFrame,
            .controlFrameTooLong, .invalidLength, .unexpectedContinuation, .expectedContinuation,
            .closePayloadTooShort, .invalidCloseCode:
            return .protocolError
        }
    }

    /// Short enough for a close frame's reason (at most 123 bytes).
    public var description: String {
        switch self {
        case .reservedBitsSet(let bits): return "reserved bits \(bits) set without an extension"
        case .unknownOpcode(let op): return "unknown opcode \(op)"
        case .unmaskedClientFrame: return "client frames must be masked"
        case .maskedServerFrame: return "server frames must not be masked"
        case .fragmentedControlFrame(let op): return "fragmented control frame (\(op))"
        case .controlFrameTooLong(let n): return "control frame of \(n) bytes (at most 125)"
        case .invalidLength(let n): return "length \(n) not in its shortest form"
        case .unexpectedContinuation: return "continuation frame without a message"
        case .expectedContinuation: return "new message before the last one ended"
        case .invalidUTF8: return "text is not valid UTF-8"
        case .messageTooBig(let limit): return "message over \(limit) bytes"
        case .closePayloadTooShort: return "close payload of one byte"
        case .invalidCloseCode(let c): return "close code \(c) may not be sent"
        }
    }
}
