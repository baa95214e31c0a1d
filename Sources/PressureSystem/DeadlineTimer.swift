import CLinux
import Glibc

/// A timerfd on `CLOCK_MONOTONIC` armed at an absolute time: the long-press deadlines and replay pacing
/// (and the systemd watchdog's keep-alives).
///
/// Both calls can fail only on a broken descriptor or a bad time, and then no deadline would fire again;
/// they throw, and the owner decides (the daemon stops, so that systemd restarts it).
public final class DeadlineTimer {
    public let fd: Int32
    /// What the timer is for, in error messages ("timer", "watchdog timer").
    public let name: String

    public init(name: String = "timer") throws(SystemError) {
        self.name = name
        fd = try syscall("timerfd_create", name) { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_NONBLOCK | TFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// The deadline armed now, nil when disarmed (or fired and acknowledged).
    /// Unchecked exclusivity: a timer belongs to one loop's thread, which reads this every wake-up.
    @exclusivity(unchecked) public private(set) var armedAt: Int64? = nil

    /// Arms the timer at `microseconds` on the monotonic clock, or disarms it with nil. The deadline armed
    /// already is not set again (no system call), so a loop that works out its earliest deadline every
    /// iteration just calls this.
    public func arm(atMonotonicMicroseconds us: Int64?) throws(SystemError) {
        guard us != armedAt else { return }
        var spec = itimerspec()
        if let us {
            let t = max(us, 1)  // an all-zero it_value would disarm
            spec.it_value.tv_sec = Int(t / 1_000_000)
            spec.it_value.tv_nsec = Int((t % 1_000_000) * 1000)
        }
        _ = try syscall("timerfd_settime", name) { timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
        armedAt = us
    }

    /// Consumes the expiry count so the descriptor stops being readable. A timer that has not expired
    /// (re-armed after epoll reported it) has nothing to consume: that is not an error.
    public func acknowledge() throws(SystemError) {
        armedAt = nil
        var expirations: UInt64 = 0
        _ = try nonblockingSyscall("read", name) { read(fd, &expirations, MemoryLayout<UInt64>.size) }
    }
}

extension DeadlineTimer {
    /// ``arm(atMonotonicMicroseconds:)`` in a service's loop: a timer that cannot be armed fails `lifetime`,
    /// saying that `deadlines` ("long-press deadlines") can no longer fire.
    public func arm(atMonotonicMicroseconds us: Int64?, failing lifetime: inout LoopLifetime, deadlines: String) {
        do { try arm(atMonotonicMicroseconds: us) } catch { lifetime.fail(error, because: "\(deadlines) can no longer fire") }
    }

    /// ``acknowledge()`` in a service's loop, failing `lifetime` likewise; false when it failed.
    public func acknowledge(failing lifetime: inout LoopLifetime, deadlines: String) -> Bool {
        do {
            try acknowledge()
            return true
        } catch {
            lifetime.fail(error, because: "\(deadlines) can no longer fire")
            return false
        }
    }
}
