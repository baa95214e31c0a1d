import CLinux
import Glibc

/// One epoll instance: every file descriptor the daemon waits on, each registered with a token saying
/// what it is. The loop sleeps in `epoll_wait` with no timeout when nothing is due: no periodic wake-ups.
public final class EventLoop {
    public let fd: Int32
    private var ready: [epoll_event]

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
            ready.withUnsafeMutableBufferPointer { epoll_wait(fd, $0.baseAddress, Int32(count), timeoutMilliseconds) }
        }
        for i in 0..<Int(n) {
            withUnsafePointer(to: &ready[i]) { body(pressured_epoll_token($0), pressured_epoll_events($0)) }
        }
    }
}

/// A timerfd on `CLOCK_MONOTONIC` armed at an absolute time: the long-press deadlines and replay pacing.
public final class DeadlineTimer {
    public let fd: Int32

    public init() throws(SystemError) {
        fd = try syscall("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// The deadline armed now, nil when disarmed (or fired and acknowledged): a loop that works out its
    /// earliest deadline every iteration re-arms only when it changed.
    public private(set) var armedAt: Int64? = nil

    /// Arms the timer at `microseconds` on the monotonic clock, or disarms it with nil.
    public func arm(atMonotonicMicroseconds us: Int64?) {
        armedAt = us
        var spec = itimerspec()
        if let us {
            let t = max(us, 1)  // an all-zero it_value would disarm
            spec.it_value.tv_sec = Int(t / 1_000_000)
            spec.it_value.tv_nsec = Int((t % 1_000_000) * 1000)
        }
        _ = timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Consumes the expiry count so the descriptor stops being readable.
    public func acknowledge() {
        armedAt = nil
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, 8)
    }
}

/// `SIGTERM`, `SIGINT` and `SIGHUP` as readable events on a signalfd, so they are handled in the loop like
/// everything else rather than in a signal handler.
public final class SignalWatcher {
    public let fd: Int32

    public init(signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        // Blocked, the signals wait in the signalfd instead of killing the process.
        _ = sigprocmask(SIG_BLOCK, &mask, nil)
        // A client that hangs up while we write must be an EPIPE, not a SIGPIPE that kills the daemon.
        signal(SIGPIPE, SIG_IGN)
        fd = try syscall("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// The signals that arrived since the last call.
    public func receive() -> [Int32] {
        var got: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            got.append(Int32(info.ssi_signo))
        }
        return got
    }
}

/// Now on `CLOCK_MONOTONIC`, in microseconds: the clock evdev timestamps use once libevdev is told to.
public func monotonicMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}
