import Glibc

// The syscall funnel (as swift-system has one): every system call of the system layer, the Linux layer
// above it and the web bridge's loop whose result matters, set-up and hot path alike, goes through one of
// the four functions below (`package`: for this package's targets, not for apps), so that turning a
// failure into a typed ``SystemError`` carrying errno and retrying `EINTR` are written once, in
// `retryingInterrupted`. Calls whose failure is deliberately ignored (`close`, `unlink` of a stale file,
// `epoll_ctl(DEL)` of a closed descriptor) and text written to stderr (log lines, prompts) do not need it.
//
// All four are inlined closures over integers: no allocation, so the daemon's hot path (reads of
// devices and clients, writes to clients, epoll_wait, the timerfd and the signalfd) can use them too.

/// How a call says it failed.
enum FailureConvention {
    /// `-1`, with the reason in errno: system calls.
    case minusOneAndErrno
    /// The reason negated as the result, errno untouched: libevdev.
    case negativeErrno
}

/// Runs `body` again while it fails with `EINTR`; returns its last result and, when that is a failure,
/// the errno it failed with (else 0).
@inline(__always)
private func retryingInterrupted<T: FixedWidthInteger & SignedInteger>(
    _ convention: FailureConvention, _ body: () -> T
) -> (result: T, errno: Int32) {
    while true {
        let r = body()
        let e: Int32
        switch convention {
        case .minusOneAndErrno:
            if r != -1 { return (r, 0) }
            e = Glibc.errno
        case .negativeErrno:
            if r >= 0 { return (r, 0) }
            e = Int32(truncatingIfNeeded: 0 &- r)  // &-: no trap on a (nonsensical) T.min
        }
        if e != EINTR { return (r, e) }
    }
}

/// Whether errno says a non-blocking call had nothing to do now.
@inline(__always)
private func wouldBlock(_ e: Int32) -> Bool { e == EAGAIN || e == EWOULDBLOCK }

/// A call that must succeed: `-1` becomes a ``SystemError`` naming `call` and `subject` (a path, a device
/// node, "client"), `EINTR` is retried. `EAGAIN` is an error here: set-up calls and blocking descriptors.
@inline(__always)
package func syscall<T: FixedWidthInteger & SignedInteger>(_ call: String, _ subject: String = "", _ body: () -> T) throws(SystemError) -> T {
    let (r, e) = retryingInterrupted(.minusOneAndErrno, body)
    if e != 0 { throw SystemError(call: call, subject: subject, errno: e) }
    return r
}

/// A call on a non-blocking descriptor: nil when it would block (`EAGAIN`, `EWOULDBLOCK`), which is an
/// ordinary outcome (nothing to read, no room to write, a timer that has not expired), not an error.
@inline(__always)
package func nonblockingSyscall<T: FixedWidthInteger & SignedInteger>(
    _ call: String, _ subject: String = "", _ body: () -> T
) throws(SystemError) -> T? {
    let (r, e) = retryingInterrupted(.minusOneAndErrno, body)
    if e == 0 { return r }
    if wouldBlock(e) { return nil }
    throw SystemError(call: call, subject: subject, errno: e)
}

/// A libevdev call on a non-blocking device (`libevdev_next_event`): it returns `-errno` instead of
/// setting errno; otherwise the same rules as ``nonblockingSyscall(_:_:_:)``.
@inline(__always)
package func nonblockingLibevdevCall(_ call: String, _ subject: String, _ body: () -> Int32) throws(SystemError) -> Int32? {
    let (r, e) = retryingInterrupted(.negativeErrno, body)
    if e == 0 { return r }
    if wouldBlock(e) { return nil }
    throw SystemError(call: call, subject: subject, errno: e)
}

/// A libevdev call that must succeed (`libevdev_uinput_create_from_device`): it returns `-errno` instead
/// of setting errno; a failure becomes a ``SystemError``, `EINTR` is retried, as in ``syscall(_:_:_:)``.
@inline(__always)
package func libevdevCall(_ call: String, _ subject: String, _ body: () -> Int32) throws(SystemError) -> Int32 {
    let (r, e) = retryingInterrupted(.negativeErrno, body)
    if e != 0 { throw SystemError(call: call, subject: subject, errno: e) }
    return r
}
