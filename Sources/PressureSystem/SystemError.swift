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
