import CLinux
import Glibc

/// A timerfd on `CLOCK_MONOTONIC` armed at an absolute time: the long-press deadlines and replay pacing.
public final class DeadlineTimer {
    public let fd: Int32

    public init() throws(SystemError) {
        fd = try syscall("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Arms the timer at `microseconds` on the monotonic clock, or disarms it with nil.
    public func arm(atMonotonicMicroseconds us: Int64?) {
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
        var expirations: UInt64 = 0
        _ = read(fd, &expirations, 8)
    }
}
