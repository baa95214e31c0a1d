import PressureCore

/// One client's socket and the bytes it sent that do not yet make a line.
public final class ClientConnection {
    let socket: StreamSocket
    public var fd: Int32 { socket.fd }
    /// The bytes it sent that do not yet make a line.
    var lines = LineBuffer(maximumLine: ClientConnection.maximumLine, reserving: ClientConnection.readChunk)
    /// Registered for EPOLLOUT (bytes are queued that the socket did not take yet).
    var waitsForWritable: Bool {
        get { socket.waitsForWritable }
        set { socket.waitsForWritable = newValue }
    }
    /// The longest request line accepted (`docs/protocol.md`).
    public static let maximumLine = 64 * 1024

    init(fd: Int32) {
        socket = StreamSocket(fd: fd)
    }

    /// Who connected, as the kernel recorded it.
    public func credentials() throws(SystemError) -> PeerCredentials { try PeerCredentials(socket: fd) }

    /// Bytes asked of one `read(2)`: a request line is short, and a longer one takes more calls.
    static let readChunk = 4096

    /// Reads what is there and calls `line` with each complete line (without its newline), straight into
    /// the line buffer: no buffer of its own.
    public func read(_ line: (ArraySlice<UInt8>) -> Void) -> ClientReadOutcome {
        while true {
            var outcome = StreamSocket.ReadOutcome.wouldBlock
            let fits = lines.receive(upTo: Self.readChunk, { buffer in
                outcome = socket.read(into: buffer)
                if case .data(let n) = outcome { return n }
                return 0
            }, line)
            switch outcome {
            case .wouldBlock: return .open
            case .closed: return .closed  // a hang-up, or ECONNRESET and the like: gone either way
            case .data: if !fits { return .lineTooLong }
            }
        }
    }

    /// For the last words at shutdown: blocking writes, bounded by a send timeout.
    public func makeBlocking(sendTimeoutMilliseconds ms: Int) { socket.makeBlocking(sendTimeoutMilliseconds: ms) }

    /// Writes as much of `bytes` as the socket takes now; returns the count, or -1 when the peer is gone.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int { socket.write(bytes) }
}
