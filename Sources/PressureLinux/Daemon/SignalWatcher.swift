import CLinux
import Glibc

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
