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
/// `EINTR` is retried, written once (as swift-system does).
@inline(__always)
func syscall<T: FixedWidthInteger>(_ call: String, _ subject: String = "", _ body: () -> T) throws(SystemError) -> T {
    while true {
        let r = body()
        if r != -1 { return r }
        let e = Glibc.errno
        if e == EINTR { continue }
        throw SystemError(call: call, subject: subject, errno: e)
    }
}
