import Glibc
import PressureCommandLine

/// `--realtime`: memory locked so the hot path never page-faults, and `SCHED_FIFO` so a busy machine does
/// not delay a frame. Each step says clearly when it is not permitted and the daemon carries on.
enum Realtime {
    static let priority: Int32 = 50

    static func enable() {
        if mlockall(MCL_CURRENT | MCL_FUTURE) != 0 {
            Log.warning("--realtime: mlockall: \(String(cString: strerror(errno))) (needs CAP_IPC_LOCK or a higher RLIMIT_MEMLOCK); memory stays unlocked")
        } else {
            Log.info("--realtime: memory locked")
        }
        var param = sched_param()
        param.sched_priority = priority
        if sched_setscheduler(0, SCHED_FIFO, &param) != 0 {
            Log.warning("--realtime: SCHED_FIFO: \(String(cString: strerror(errno))) (needs CAP_SYS_NICE or RLIMIT_RTPRIO); staying with the normal scheduler")
        } else {
            Log.info("--realtime: SCHED_FIFO priority \(priority)")
        }
    }
}
