/// Writes frames (RFC 6455 §5.2): the header in its shortest form, then the payload, masked when a key is
/// given (a client must mask every frame; a server never does).
public enum FrameEncoder {
    /// The header of a frame of `length` payload bytes.
    public static func appendHeader(
        opcode: WebSocketOpcode, fin: Bool = true, length: Int, maskKey: (UInt8, UInt8, UInt8, UInt8)? = nil,
        to out: inout [UInt8]
    ) {
        out.append((fin ? 0x80 : 0) | opcode.rawValue)
        let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
        if length < 126 {
            out.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            out.append(maskBit | 126)
            out.append(UInt8(length >> 8))
            out.append(UInt8(length & 0xFF))
        } else {
            out.append(maskBit | 127)
            let n = UInt64(length)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: n >> UInt64(shift))) }
        }
        if let k = maskKey { out.append(contentsOf: [k.0, k.1, k.2, k.3]) }
    }

    /// A whole frame.
    public static func append(
        opcode: WebSocketOpcode, fin: Bool = true, payload: some Collection<UInt8>,
        maskKey: (UInt8, UInt8, UInt8, UInt8)? = nil, to out: inout [UInt8]
    ) {
        appendHeader(opcode: opcode, fin: fin, length: payload.count, maskKey: maskKey, to: &out)
        guard let k = maskKey else {
            out.append(contentsOf: payload)
            return
        }
        let key = [k.0, k.1, k.2, k.3]
        for (i, b) in payload.enumerated() { out.append(b ^ key[i & 3]) }
    }

    /// A close frame's payload: the code, then a reason cut to fit 125 bytes on a character boundary.
    public static func closePayload(_ code: WebSocketCloseCode, reason: String = "") -> [UInt8] {
        var out = [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)]
        var used = 0
        for scalar in reason.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            guard used + bytes.count <= 123 else { break }
            out.append(contentsOf: bytes)
            used += bytes.count
        }
        return out
    }
}
