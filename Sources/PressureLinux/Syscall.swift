import Glibc

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
