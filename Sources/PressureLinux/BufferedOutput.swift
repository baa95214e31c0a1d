import Glibc

/// A buffered writer to a file descriptor (stdout for `pressurectl replay`), flushing in large writes so a
/// replay of millions of events costs few system calls.
public struct BufferedOutput: ~Copyable {
    public let fd: Int32
    public var buffer: [UInt8] = []
    let flushAt: Int

    public init(fd: Int32, capacity: Int = 1 << 16) {
        self.fd = fd
        flushAt = capacity
        buffer.reserveCapacity(capacity + 4096)
    }

    /// Writes out the buffer if it is full.
    @inline(__always)
    public mutating func flushIfFull() throws(SystemError) {
        if buffer.count >= flushAt { try flush() }
    }

    public mutating func flush() throws(SystemError) {
        var offset = 0
        while offset < buffer.count {
            let n = try syscall("write", "output") {
                buffer.withUnsafeBytes { b in Glibc.write(fd, b.baseAddress.map { $0 + offset }, b.count - offset) }
            }
            offset += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
