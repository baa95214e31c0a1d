import Glibc
import Synchronization

/// A connected, blocking Unix stream socket, shared by the connection's reading thread and the tasks that
/// send requests.
///
/// The descriptor is closed only in `deinit`, when nobody can use it any more: ending a connection is a
/// `shutdown`, so a send racing with the end fails cleanly instead of reaching a descriptor number the
/// process has since reused for something else, and no lock is needed around the descriptor itself.
final class UnixSocket: Sendable {
    let fd: Int32
    /// Serialises senders: a stream socket may take a line in several writes, which must not interleave.
    private let sendLock = Mutex(())

    /// Connects to `path`; a refused or missing socket is an error at once (Unix sockets do not wait).
    init(path: String, sendTimeout: Duration) throws(PressuredClientError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // One byte is kept for the terminating NUL.
        guard !pathBytes.isEmpty, pathBytes.count < capacity else { throw .pathTooLong(path) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in pathBytes.enumerated() { raw[i] = b }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .cannotConnect(path: path, errno: errno) }
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard r == 0 else {
            let e = errno
            Glibc.close(fd)
            throw .cannotConnect(path: path, errno: e)
        }
        self.fd = fd
        // Requests are small and the daemon reads continuously; a send that still blocks this long means a
        // wedged daemon, and becomes an error rather than a hung caller.
        setTimeout(SO_SNDTIMEO, sendTimeout)
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws(PressuredClientError) {
        let failure: PressuredClientError? = sendLock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let n = bytes.withUnsafeBytes { b in
                    Glibc.send(fd, b.baseAddress.map { $0 + offset }, b.count - offset, Int32(MSG_NOSIGNAL))
                }
                if n < 0 {
                    let e = errno
                    if e == EINTR { continue }
                    return .connectionLost("send failed: \(String(cString: strerror(e)))")
                }
                offset += n
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Reads what is available into `buffer` (blocking): the byte count, 0 at end of stream, or -errno.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            let e = errno
            if e != EINTR { return -Int(e) }
        }
    }

    /// `SO_RCVTIMEO`/`SO_SNDTIMEO`; nil for none (block for ever).
    func setTimeout(_ option: Int32, _ duration: Duration?) {
        var tv = timeval()
        if let duration {
            let (seconds, attoseconds) = duration.components
            tv.tv_sec = Int(seconds)
            tv.tv_usec = Int(attoseconds / 1_000_000_000_000)
            // Zero means "no timeout" to the kernel: round a tiny positive duration up.
            if tv.tv_sec == 0 && tv.tv_usec == 0 { tv.tv_usec = 1 }
        }
        _ = setsockopt(fd, SOL_SOCKET, option, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Ends both directions: the reading thread's `recv` returns 0, a blocked `send` fails, the daemon sees
    /// the connection close. Idempotent.
    func shutdown() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    deinit { Glibc.close(fd) }
}

/// Starts `body` on a new detached POSIX thread: the connection's blocking reads must not occupy one of
/// Swift concurrency's few cooperative threads (two on a two-core machine) for the life of a connection.
func startThread(_ body: @escaping @Sendable () -> Void) throws(PressuredClientError) {
    final class Box: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    var thread = pthread_t()
    let r = pthread_create(&thread, nil, { argument in
        guard let argument else { return nil }
        Unmanaged<Box>.fromOpaque(argument).takeRetainedValue().body()
        return nil
    }, context)
    guard r == 0 else {
        Unmanaged<Box>.fromOpaque(context).release()
        throw .disconnected("cannot start the reading thread: \(String(cString: strerror(r)))")
    }
    pthread_detach(thread)
}
