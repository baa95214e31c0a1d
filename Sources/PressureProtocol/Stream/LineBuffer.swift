/// The protocol's framing on the receiving side: bytes from a stream cut into `\n`-terminated lines, with a
/// bound on how long an unfinished line may grow. The daemon reads its clients' requests with it and the
/// web bridge the daemon's lines.
///
/// Bytes are read straight into the tail of the buffer, which keeps its capacity between reads: no buffer
/// of the reader's own, and no allocation unless an unfinished line makes it grow.
public struct LineBuffer: Sendable {
    /// The longest unfinished line kept; past it the stream is not JSON lines (or not this protocol's).
    public let maximumLine: Int
    private var pending: [UInt8] = []

    public init(maximumLine: Int, reserving capacity: Int = 4096) {
        self.maximumLine = maximumLine
        pending.reserveCapacity(capacity)
    }

    /// Bytes after the last complete line.
    public var unfinishedCount: Int { pending.count }

    /// Lets `fill` write up to `count` bytes into the buffer's end and return how many it wrote (0 for
    /// none), then calls `line` with each complete line, without its `\n`. False when the unfinished line
    /// is now over ``maximumLine``.
    public mutating func receive(
        upTo count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Int, _ line: (ArraySlice<UInt8>) -> Void
    ) -> Bool {
        var start = pending.count
        pending.append(contentsOf: repeatElement(0, count: count))
        let written = pending.withUnsafeMutableBytes { all in
            fill(UnsafeMutableRawBufferPointer(rebasing: all[start..<(start + count)]))
        }
        pending.removeSubrange((start + max(0, min(written, count)))...)
        var lineStart = 0
        while let nl = pending[start...].firstIndex(of: 0x0A) {
            line(pending[lineStart..<nl])
            lineStart = nl + 1
            start = lineStart
        }
        if lineStart > 0 { pending.removeSubrange(0..<lineStart) }
        return pending.count <= maximumLine
    }

    /// Calls `line` with each complete line in `bytes` (without its `\n`); false when an unfinished line
    /// is over the bound.
    public mutating func append(_ bytes: UnsafeRawBufferPointer, _ line: (ArraySlice<UInt8>) -> Void) -> Bool {
        receive(upTo: bytes.count, { buffer in
            buffer.copyMemory(from: bytes)
            return bytes.count
        }, line)
    }
}
