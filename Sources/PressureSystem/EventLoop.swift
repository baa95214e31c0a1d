import CLinux
import Glibc

/// One epoll instance: every file descriptor the daemon waits on, each registered with a token saying
/// what it is. The loop sleeps in `epoll_wait` with no timeout when nothing is due: no periodic wake-ups.
public final class EventLoop {
    public let fd: Int32
    /// Unchecked exclusivity: one thread waits on a loop, and `wait` is its only user; checked at run time
    /// it cost a call into the runtime every wake-up.
    @exclusivity(unchecked) private var ready: [epoll_event]

    public init(capacity: Int = 64) throws(SystemError) {
        fd = try syscall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        ready = Array(repeating: epoll_event(), count: capacity)
    }

    deinit { close(fd) }

    public static let readable = UInt32(EPOLLIN.rawValue)
    public static let writable = UInt32(EPOLLOUT.rawValue)
    public static let hangup = UInt32(EPOLLHUP.rawValue) | UInt32(EPOLLERR.rawValue)

    public func add(_ target: Int32, token: UInt64, events: UInt32 = EventLoop.readable) throws(SystemError) {
        var e = epoll_event()
        pressured_epoll_set(&e, events, token)
        _ = try syscall("epoll_ctl(ADD)") { epoll_ctl(fd, EPOLL_CTL_ADD, target, &e) }
    }

    public func modify(_ target: Int32, token: UInt64, events: UInt32) throws(SystemError) {
        var e = epoll_event()
        pressured_epoll_set(&e, events, token)
        _ = try syscall("epoll_ctl(MOD)") { epoll_ctl(fd, EPOLL_CTL_MOD, target, &e) }
    }

    /// Removing a descriptor that is already closed is not an error worth reporting.
    public func remove(_ target: Int32) {
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, target, nil)
    }

    /// Waits (forever, or `timeoutMilliseconds`) and calls `body` with each ready token and its events.
    public func wait(timeoutMilliseconds: Int32 = -1, _ body: (UInt64, UInt32) -> Void) throws(SystemError) {
        let count = ready.count
        let n = try syscall("epoll_wait") {
            epoll_wait(fd, &ready, Int32(count), timeoutMilliseconds)
        }
        for i in 0..<Int(n) {
            withUnsafePointer(to: &ready[i]) { body(pressured_epoll_token($0), pressured_epoll_events($0)) }
        }
    }
}
