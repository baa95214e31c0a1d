/// The protocol's framing on the receiving side: bytes from a stream cut into `\n`-terminated lines, with a
/// bound on how long an unfinished line may grow. The daemon reads its clients' requests with it and the
/// web bridge the daemon's lines.
///
/// Bytes are read straight into the buffer's free room, which is kept between reads: no buffer of the
/// reader's own, no allocation and nothing to clear per read, unless an unfinished line makes it grow (the
/// bridge reads a line a millisecond for each page).
public struct LineBuffer: Sendable {
    /// The longest unfinished line kept; past it the stream is not JSON lines (or not this protocol's).
    public let maximumLine: Int
    /// Always initialised to its full count; bytes from `filled` on are free room.
    private var storage: [UInt8]
    private var filled = 0

    public init(maximumLine: Int, reserving capacity: Int = 4096) {
        self.maximumLine = maximumLine
        storage = [UInt8](repeating: 0, count: capacity)
    }

    /// Bytes after the last complete line.
    public var unfinishedCount: Int { filled }

    /// Lets `fill` write up to `count` bytes into the buffer's free room and return how many it wrote (0 for
    /// none), then calls `line` with each complete line, without its `\n`. False when a line is over
    /// ``maximumLine`` bytes (every byte before its `\n` counts, a `\r` too), finished or not, so the
    /// bound never depends on how the bytes were split into reads: that line and what follows it are not
    /// handed over, and the buffer forgets them.
    public mutating func receive(
        upTo count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Int, _ line: (ArraySlice<UInt8>) -> Void
    ) -> Bool {
        if storage.count - filled < count { storage.append(contentsOf: repeatElement(0, count: filled + count - storage.count)) }
        let start = filled
        let written = storage.withUnsafeMutableBytes { all in
            fill(UnsafeMutableRawBufferPointer(rebasing: all[start..<(start + count)]))
        }
        filled += max(0, min(written, count))
        var lineStart = 0
        var scan = start
        while let nl = storage[scan..<filled].firstIndex(of: 0x0A) {
            guard nl - lineStart <= maximumLine else {
                filled = 0
                return false
            }
            line(storage[lineStart..<nl])
            lineStart = nl + 1
            scan = lineStart
        }
        if lineStart > 0 {
            // The unfinished rest to the front: usually nothing, or part of one line.
            let rest = filled - lineStart
            if rest > 0 {
                storage.withUnsafeMutableBytes { all in
                    guard let base = all.baseAddress else { return }
                    base.copyMemory(from: base + lineStart, byteCount: rest)  // memmove: the two may overlap
                }
            }
            filled = rest
        }
        return filled <= maximumLine
    }

    /// At end of stream: calls `line` with the unfinished rest, unless it is blank (spaces, tabs, `\r`),
    /// since a last line whose newline was left out (`printf '{...}' | nc -NU`) is a line too; then
    /// forgets it.
    public mutating func finish(_ line: (ArraySlice<UInt8>) -> Void) {
        if storage[0..<filled].contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) { line(storage[0..<filled]) }
        filled = 0
    }

    /// Forgets the unfinished rest (after a line too long: the rest of it is not read into memory).
    public mutating func discardUnfinished() { filled = 0 }

    /// Calls `line` with each complete line in `bytes` (without its `\n`); false when an unfinished line
    /// is over the bound.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, _ line: (ArraySlice<UInt8>) -> Void) -> Bool {
        receive(upTo: bytes.count, { buffer in
            buffer.copyMemory(from: bytes)
            return bytes.count
        }, line)
    }
}
