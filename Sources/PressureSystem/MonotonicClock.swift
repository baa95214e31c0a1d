import Glibc

/// Now on `CLOCK_MONOTONIC`, in microseconds: the clock evdev timestamps use once libevdev is told to.
public func monotonicMicroseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
}
