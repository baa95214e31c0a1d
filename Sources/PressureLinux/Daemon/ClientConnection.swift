import CLinux
import Glibc

/// One client's socket and the bytes it sent that do not yet make a line.
public final class ClientConnection {
    public let fd: Int32
    var pending: [UInt8] = []
    /// Registered for EPOLLOUT (bytes are queued that the socket did not take yet).
    var waitsForWritable = false
    /// Registered for EPOLLIN (until its input ended).
    var watchesReadable = true
    /// The client sent end of file: it is no longer read (nor registered for EPOLLIN), only written to.
    var inputEnded = false
    /// The socket took bytes since the replay's pacing last looked (``Daemon/replayWake()``).
    var tookBytes = false
    /// Since when (monotonic µs) its backlog holds a full-speed replay back without the socket taking
    /// anything; nil while it keeps up.
    var stalledSince: Int64? = nil
    /// The longest request line accepted (`docs/protocol.md`).
    public static let maximumLine = 64 * 1024

    init(fd: Int32) {
        self.fd = fd
        pending.reserveCapacity(Self.readChunk)
    }

    deinit { close(fd) }

    /// Who connected, as the kernel recorded it.
    public func credentials() throws(SystemError) -> PeerCredentials { try PeerCredentials(socket: fd) }

    /// Bytes asked of one `read(2)`: a request line is short, and a longer one takes more calls.
    static let readChunk = 4096

    /// Reads what is there and calls `line` with each complete line (without its newline), and, at end
    /// of file, with what follows the last newline unless it is blank.
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
                // ECONNRESET and the like: the client is gone.
                return .closed
            }
            pending.removeSubrange((start + (got ?? 0))...)
            guard let n = got else { return .open }
            if n == 0 {
                // A last request whose newline was left out (`printf '{...}' | nc -NU`) is a line too.
                if pending.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0d }) { line(pending[...]) }
                pending.removeAll(keepingCapacity: true)
                return .endOfInput
            }
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

    /// Forgets the bytes read that do not make a line (after `line-too-long`: the rest of that line is
    /// not read into memory).
    func discardPending() { pending.removeAll(keepingCapacity: true) }

    /// For the last words at shutdown: blocking writes, bounded by a send timeout.
    public func makeBlocking(sendTimeoutMilliseconds ms: Int) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
        var tv = timeval(tv_sec: ms / 1000, tv_usec: (ms % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Writes as much of `bytes` as the socket takes now; returns the count, or -1 when the peer is gone.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        do {
            // nil: the socket's buffer is full (or, blocking, the send timeout passed); nothing taken.
            return try nonblockingSyscall("send", "client", { send(fd, base, bytes.count, Int32(MSG_NOSIGNAL)) }) ?? 0
        } catch {
            // EPIPE, ECONNRESET: the peer is gone.
            return -1
        }
    }
}
