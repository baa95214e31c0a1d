import PressureCore

/// One client's socket and the bytes it sent that do not yet make a line.
///
/// Its flags are read and set for every write; only the loop's thread touches them and no access of
/// one overlaps another, so they are `@exclusivity(unchecked)` (no call into the runtime each time).
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
    /// Registered for EPOLLIN (until its input ended).
    @exclusivity(unchecked) var watchesReadable = true
    /// The client sent end of file: it is no longer read (nor registered for EPOLLIN), only written to.
    @exclusivity(unchecked) var inputEnded = false
    /// The socket took bytes since the replay's pacing last looked (``ReplayRun/noteReaders(hub:clients:now:)``).
    @exclusivity(unchecked) var tookBytes = false
    /// Since when (monotonic µs) its backlog holds a full-speed replay back without the socket taking
    /// anything; nil while it keeps up.
    @exclusivity(unchecked) var stalledSince: Int64? = nil
    /// The longest request line accepted (`docs/protocol.md`).
    public static let maximumLine = 64 * 1024

    /// The longest send the socket takes whole or not at all (``StreamSocket/wholeSendLimit()``).
    private let wholeSend: Int

    init(fd: Int32) {
        socket = StreamSocket(fd: fd)
        wholeSend = socket.wholeSendLimit()
    }

    /// Who connected, as the kernel recorded it.
    public func credentials() throws(SystemError) -> PeerCredentials { try PeerCredentials(socket: fd) }

    /// Bytes asked of one `read(2)`: a request line is short, and a longer one takes more calls.
    static let readChunk = 4096

    /// Reads what is there and calls `line` with each complete line (without its newline), straight into
    /// the line buffer (no buffer of its own), and, at end of file, with what follows the last newline
    /// unless it is blank.
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
            case .closed: return .closed  // ECONNRESET and the like: gone
            case .endOfStream:
                lines.finish(line)
                return .endOfInput
            case .data: if !fits { return .lineTooLong }
            }
        }
    }

    /// Forgets the bytes read that do not make a line (after `line-too-long`: the rest of that line is
    /// not read into memory).
    func discardPending() { lines.discardUnfinished() }

    /// Writes as much of `bytes` (whole lines) as the socket takes now; returns the count, or -1 when the
    /// peer is gone. Bytes go in sends the socket takes whole or not at all, each cut after a newline, so
    /// what the client has been sent always ends with a whole line: one that stops reading, then is
    /// closed (the daemon stopping), reads no torn line. Most writes are one send (a frame's lines);
    /// only a backlog past ``StreamSocket/wholeSendLimit()`` takes more. (A line longer than that limit
    /// goes in pieces: none of the daemon's lines comes near it.)
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        var written = 0
        while written < bytes.count {
            var end = bytes.count
            if end - written > wholeSend {
                let window = UnsafeRawBufferPointer(rebasing: bytes[written..<(written + wholeSend)])
                end = window.lastIndex(of: 0x0A).map { written + $0 + 1 } ?? written + wholeSend
            }
            let n = socket.write(UnsafeRawBufferPointer(rebasing: bytes[written..<end]))
            if n < 0 { return written > 0 ? written : -1 }
            written += n
            if written < end { break }  // the socket is full
        }
        return written
    }

    /// Bytes written that the client has not read yet (``StreamSocket/unreadByPeer``).
    var unreadByClient: Int? { socket.unreadByPeer }
}
