/// Splits a byte stream into ``WebSocketFrame``s, checking each header as soon as it is in (RFC 6455
/// §5.2), so a hostile or broken peer is failed before its payload is read: reserved bits, unknown
/// opcodes, masking (required from clients, refused from servers), control frame rules, minimal lengths,
/// and the size cap (before a single payload byte is buffered).
///
/// It does not know about messages: fragments come out as they are; ``MessageAssembler`` joins them.
/// After it throws, the stream is unusable and the decoder keeps throwing the same error.
public struct FrameDecoder: Sendable {
    /// Which side's frames this decodes: a server decodes client frames, which must be masked.
    public enum Peer: Sendable {
        case client
        case server
    }

    public let peer: Peer
    /// The largest payload one frame may carry.
    public let maximumPayload: Int

    private var buffer: [UInt8] = []
    private var head = 0
    private var failure: WebSocketProtocolError? = nil

    public init(decoding peer: Peer, maximumPayload: Int) {
        self.peer = peer
        self.maximumPayload = maximumPayload
    }

    /// Bytes received and not yet part of a returned frame.
    public var bufferedCount: Int { buffer.count - head }

    /// Adds received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if head > 0 && head == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            head = 0
        }
        buffer.append(contentsOf: bytes)
    }

    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next complete frame, nil when more bytes are needed.
    public mutating func next() throws(WebSocketProtocolError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            guard let frame = try parse() else {
                if head > buffer.count / 2 { compact() }
                return nil
            }
            return frame
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func compact() {
        buffer.removeSubrange(0..<head)
        head = 0
    }

    private func byte(_ i: Int) -> UInt8 { buffer[head + i] }

    private mutating func parse() throws(WebSocketProtocolError) -> WebSocketFrame? {
        let available = buffer.count - head
        guard available >= 2 else { return nil }
        let b0 = byte(0), b1 = byte(1)
        let reserved = (b0 >> 4) & 0x7
        guard reserved == 0 else { throw .reservedBitsSet(reserved) }
        guard let opcode = WebSocketOpcode(rawValue: b0 & 0xF) else { throw .unknownOpcode(b0 & 0xF) }
        let fin = b0 & 0x80 != 0
        let masked = b1 & 0x80 != 0
        switch peer {
        case .client: guard masked else { throw .unmaskedClientFrame }
        case .server: guard !masked else { throw .maskedServerFrame }
        }
        if opcode.isControl && !fin { throw .fragmentedControlFrame(opcode) }
        var length = UInt64(b1 & 0x7F)
        var offset = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(byte(2)) << 8 | UInt64(byte(3))
            guard length >= 126 else { throw .invalidLength(length) }
            offset = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for i in 2..<10 { length = length << 8 | UInt64(byte(i)) }
            guard length >> 63 == 0, length > 0xFFFF else { throw .invalidLength(length) }
            offset = 10
        }
        if opcode.isControl && length > 125 { throw .controlFrameTooLong(Int(clamping: length)) }
        guard length <= UInt64(maximumPayload) else { throw .messageTooBig(limit: maximumPayload) }
        let count = Int(length)
        var mask: (UInt8, UInt8, UInt8, UInt8)? = nil
        if masked {
            guard available >= offset + 4 else { return nil }
            mask = (byte(offset), byte(offset + 1), byte(offset + 2), byte(offset + 3))
            offset += 4
        }
        guard available >= offset + count else { return nil }
        let start = head + offset
        var payload = Array(buffer[start..<(start + count)])
        if let m = mask {
            let key = [m.0, m.1, m.2, m.3]
            payload.withUnsafeMutableBufferPointer { p in
                for i in 0..<p.count { p[i] ^= key[i & 3] }
            }
        }
        head = start + count
        return WebSocketFrame(fin: fin, opcode: opcode, payload: payload)
    }
}
