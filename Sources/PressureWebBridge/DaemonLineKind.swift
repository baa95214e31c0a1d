import PressureProtocol

/// What a line from the daemon is to a browser's queue (``ClientQueue/Kind``): a contact's `moved`, which
/// may be coalesced past the touch limit; its `ended`/`cancelled`, which replaces a queued `moved`; or
/// anything else, which must arrive. So a page under back-pressure keeps every contact whole, as the
/// daemon keeps them for its own clients (`docs/protocol.md`, "Back-pressure").
///
/// The bridge relays the daemon's lines unparsed; this reads only the fields that decide, in the order
/// the daemon writes a touch event (`{"type":"touch","phase":...,"time":...,"device":N,"contact":M,...`,
/// ``WireFormat``). A line that does not read so is `other`: never left out.
enum DaemonLineKind {
    static let touchPrefix = Array(#"{"type":"touch","phase":""#.utf8)
    static let moved = Array("moved".utf8)
    static let ended = Array("ended".utf8)
    static let cancelled = Array("cancelled".utf8)
    static let deviceKey = Array(#""device":"#.utf8)
    static let contactKey = Array(#""contact":"#.utf8)

    static func of(_ line: ArraySlice<UInt8>) -> ClientQueue.Kind {
        guard line.starts(with: touchPrefix) else { return .other }
        let phaseStart = line.startIndex + touchPrefix.count
        guard let phaseEnd = line[phaseStart...].firstIndex(of: UInt8(ascii: "\"")) else { return .other }
        let phase = line[phaseStart..<phaseEnd]
        let isMoved = phase.elementsEqual(moved)
        guard isMoved || phase.elementsEqual(ended) || phase.elementsEqual(cancelled),
            let device = integer(after: deviceKey, in: line[phaseEnd...]),
            let contact = integer(after: contactKey, in: line[phaseEnd...]), contact >= 0
        else { return .other }
        let c = UInt64(contact)
        return isMoved ? .moved(device: device, contact: c) : .end(device: device, contact: c)
    }

    /// The non-negative integer that follows the first `key` in `bytes` (nil: absent, or not digits).
    private static func integer(after key: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        var i = bytes.startIndex
        while i + key.count <= bytes.endIndex {
            if bytes[i] == key[0], bytes[i..<(i + key.count)].elementsEqual(key) {
                var j = i + key.count
                var n = 0
                while j < bytes.endIndex, let d = digit(bytes[j]) {
                    guard n < Int.max / 10 - 9 else { return nil }
                    n = n * 10 + d
                    j += 1
                }
                return j > i + key.count ? n : nil
            }
            i += 1
        }
        return nil
    }

    private static func digit(_ b: UInt8) -> Int? { b >= 0x30 && b <= 0x39 ? Int(b - 0x30) : nil }
}
