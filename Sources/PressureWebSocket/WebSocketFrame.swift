/// One frame as a value (RFC 6455 §5.2), its payload already unmasked. Reserved bits are not carried:
/// no extension is ever negotiated, so a frame with any of them set never becomes a value.
public struct WebSocketFrame: Hashable, Sendable {
    /// FIN: the last frame of its message (always true for control frames).
    public var fin: Bool
    public var opcode: WebSocketOpcode
    public var payload: [UInt8]

    public init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }
}
