/// Joins frames into messages (RFC 6455 §5.4), states `idle` and `open(kind, bytes so far)`: control
/// frames may come between fragments, text is checked as UTF-8 fragment by fragment (split characters
/// included), a message is held to a size cap, and close payloads are checked (code, UTF-8 reason).
///
/// | state | frame | next | out |
/// |---|---|---|---|
/// | idle | text/binary, FIN | idle | the message |
/// | idle | text/binary, no FIN | open | — |
/// | idle | continuation | — | `unexpectedContinuation` |
/// | open | continuation, no FIN | open | — |
/// | open | continuation, FIN | idle | the message |
/// | open | text/binary | — | `expectedContinuation` |
/// | any | ping/pong/close | unchanged | the control message |
public struct MessageAssembler: Sendable {
    public enum Message: Hashable, Sendable {
        case text([UInt8])
        case binary([UInt8])
        case ping([UInt8])
        case pong([UInt8])
        /// `code` nil for a close frame without a payload (1005 to the application).
        case close(code: WebSocketCloseCode?, reason: String)
    }

    enum State: Sendable {
        case idle
        case open(text: Bool, bytes: [UInt8], validator: UTF8Validator)
    }

    public let maximumMessage: Int
    private var state = State.idle

    public init(maximumMessage: Int) {
        self.maximumMessage = maximumMessage
    }

    /// The bytes of an unfinished message held now.
    public var pendingCount: Int {
        if case .open(_, let bytes, _) = state { return bytes.count }
        return 0
    }

    /// One frame; a message when it completes one.
    public mutating func receive(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Message? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.close(frame.payload)
        case .text, .binary:
            guard case .idle = state else { throw .expectedContinuation }
            let text = frame.opcode == .text
            return try add(frame, to: [], text: text, validator: UTF8Validator())
        case .continuation:
            guard case .open(let text, let bytes, let validator) = state else { throw .unexpectedContinuation }
            // Cleared first, so the buffer's only reference moves into `add` and grows in place.
            state = .idle
            return try add(frame, to: bytes, text: text, validator: validator)
        }
    }

    private mutating func add(
        _ frame: WebSocketFrame, to held: consuming [UInt8], text: Bool, validator: UTF8Validator
    ) throws(WebSocketProtocolError) -> Message? {
        guard held.count + frame.payload.count <= maximumMessage else { throw .messageTooBig(limit: maximumMessage) }
        var v = validator
        if text {
            guard v.feed(frame.payload) else { throw .invalidUTF8 }
            if frame.fin && !v.isAtBoundary { throw .invalidUTF8 }
        }
        var bytes = held
        bytes.append(contentsOf: frame.payload)
        guard frame.fin else {
            state = .open(text: text, bytes: bytes, validator: v)
            return nil
        }
        state = .idle
        return text ? .text(bytes) : .binary(bytes)
    }

    private static func close(_ payload: [UInt8]) throws(WebSocketProtocolError) -> Message {
        if payload.isEmpty { return .close(code: nil, reason: "") }
        guard payload.count >= 2 else { throw .closePayloadTooShort }
        let code = WebSocketCloseCode(rawValue: UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnTheWire else { throw .invalidCloseCode(code.rawValue) }
        let reason = Array(payload[2...])
        guard UTF8Validator.isValid(reason) else { throw .invalidUTF8 }
        return .close(code: code, reason: String(decoding: reason, as: UTF8.self))
    }
}
