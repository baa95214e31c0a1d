import CLinux
import Glibc

/// One client's socket and the bytes it sent that do not yet make a line.
public final class ClientConnection {
    let socket: StreamSocket
    public var fd: Int32 { socket.fd }
    var pending: [UInt8] = []
    /// Registered for EPOLLOUT (bytes are queued that the socket did not take yet).
    var waitsForWritable: Bool {
        get { socket.waitsForWritable }
        set { socket.waitsForWritable = newValue }
    }
    /// The longest request line accepted (`docs/protocol.md`).
    public static let maximumLine = 64 * 1024

    init(fd: Int32) {
        socket = StreamSocket(fd: fd)
        pending.reserveCapacity(Self.readChunk)
    }

    /// Who connected, as the kernel recorded it.
    public func credentials() throws(SystemError) -> PeerCredentials { try PeerCredentials(socket: fd) }

    /// Bytes asked of one `read(2)`: a request line is short, and a longer one takes more calls.
    static let readChunk = 4096

    /// Reads what is there and calls `line` with each complete line (without its newline).
    ///
    /// Reads straight into the tail of `pending`, which keeps its capacity between calls: no buffer of
    /// its own, and no allocation unless a partial line makes `pending` grow.
    public func read(_ line: (ArraySlice<UInt8>) -> Void) -> ClientReadOutcome {
        while true {
            var start = pending.count
            pending.append(contentsOf: repeatElement(0, count: Self.readChunk))
            let got: Int?
            do {
                got = try nonblockingSyscall("read", "client") {
                    pending.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress.map { $0 + start }, Self.readChunk) }
                }
            } catch {
                // ECONNRESET and the like: the client is gone, as with an orderly hang-up.
                return .closed
            }
            pending.removeSubrange((start + (got ?? 0))...)
            guard let n = got else { return .open }
            if n == 0 { return .closed }
            var lineStart = 0
            while let nl = pending[start...].firstIndex(of: 0x0a) {
                line(pending[lineStart..<nl])
                lineStart = nl + 1
                start = lineStart
            }
            if lineStart > 0 { pending.removeSubrange(0..<lineStart) }
            if pending.count > Self.maximumLine { return .lineTooLong }
        }
    }

    /// For the last words at shutdown: blocking writes, bounded by a send timeout.
    public func makeBlocking(sendTimeoutMilliseconds ms: Int) { socket.makeBlocking(sendTimeoutMilliseconds: ms) }

    /// Writes as much of `bytes` as the socket takes now; returns the count, or -1 when the peer is gone.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int { socket.write(bytes) }
}
