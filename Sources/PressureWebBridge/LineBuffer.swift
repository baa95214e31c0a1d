/// Bytes from a stream cut into `\n`-terminated lines (the daemon's JSON lines), with a bound on how long
/// an unfinished line may grow.
public struct LineBuffer: Sendable {
    public let maximumLine: Int
    private var pending: [UInt8] = []

    public init(maximumLine: Int) {
        self.maximumLine = maximumLine
        pending.reserveCapacity(4096)
    }

    /// Calls `line` with each complete line in `bytes` (without its `\n`); false when an unfinished line
    /// is over the bound (the stream is then not JSON lines).
    public mutating func append(_ bytes: UnsafeRawBufferPointer, _ line: (ArraySlice<UInt8>) -> Void) -> Bool {
        var start = pending.count
        pending.append(contentsOf: bytes)
        var lineStart = 0
        while let nl = pending[start...].firstIndex(of: 0x0A) {
            line(pending[lineStart..<nl])
            lineStart = nl + 1
            start = lineStart
        }
        if lineStart > 0 { pending.removeSubrange(0..<lineStart) }
        return pending.count <= maximumLine
    }
}
