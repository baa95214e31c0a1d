import CLinux
import Glibc

/// A failed system call: which call, on what, and errno.
public struct SystemError: Error, Equatable, CustomStringConvertible {
    public var call: String
    public var subject: String
    public var errno: Int32

    public init(call: String, subject: String, errno: Int32) {
        self.call = call
        self.subject = subject
        self.errno = errno
    }

    public var description: String {
        let message = String(cString: strerror(errno))
        return subject.isEmpty ? "\(call): \(message)" : "\(subject): \(call): \(message)"
    }
}

/// Every system call of the Linux layer goes through here: `-1` becomes a typed error carrying errno, and
/// `EINTR` is retried, written once (as swift-system does). Public for the other Linux-layer targets
/// (the web bridge's loop).
@inline(__always)
public func syscall<T: FixedWidthInteger>(_ call: String, _ subject: String = "", _ body: () -> T) throws(SystemError) -> T {
    while true {
        let r = body()
        if r != -1 { return r }
        let e = Glibc.errno
        if e == EINTR { continue }
        throw SystemError(call: call, subject: subject, errno: e)
    }
}

/// Writes as much of `bytes` to the stream socket `fd` as it takes now, without `SIGPIPE`: the count
/// (0 when it would block), or -1 when the peer is gone. Shared by every non-blocking writer.
public func sendAvailable(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
    while true {
        let n = send(fd, base, bytes.count, Int32(MSG_NOSIGNAL))
        if n >= 0 { return n }
        if errno == EINTR { continue }
        return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1
    }
}
