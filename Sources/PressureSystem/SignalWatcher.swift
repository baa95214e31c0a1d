import CLinux
import Glibc
import PressureCommandLine

/// `SIGTERM`, `SIGINT` and `SIGHUP` as readable events on a signalfd, so they are handled in the loop like
/// everything else rather than in a signal handler.
public final class SignalWatcher {
    public let fd: Int32

    public init(signals: [Int32] = [SIGTERM, SIGINT, SIGHUP]) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for s in signals { sigaddset(&mask, s) }
        // Blocked, the signals wait in the signalfd instead of killing the process.
        _ = try syscall("sigprocmask") { sigprocmask(SIG_BLOCK, &mask, nil) }
        // A client that hangs up while we write must be an EPIPE, not a SIGPIPE that kills the daemon.
        signal(SIGPIPE, SIG_IGN)
        fd = try syscall("signalfd") { signalfd(-1, &mask, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Calls `body` with each signal that arrived since the last call, in order; returns when none is
    /// left. Throws when the signalfd cannot be read: the signals it holds would then never arrive, and
    /// the descriptor would stay readable, so the owner must stop waiting on it.
    public func receive(_ body: (Int32) -> Void) throws(SystemError) {
        var info = signalfd_siginfo()
        let size = MemoryLayout<signalfd_siginfo>.size
        while let n = try nonblockingSyscall("read", "signalfd", { read(fd, &info, size) }) {
            // The kernel hands out whole records only; anything else means the descriptor is not ours.
            guard n == size else { throw SystemError(call: "read", subject: "signalfd", errno: EIO) }
            body(Int32(info.ssi_signo))
        }
    }
}

extension SignalWatcher {
    /// What a service's loop does with the signals that arrived, the one way the daemon and the web bridge
    /// both do it: `SIGHUP` calls `reload`; any other (`SIGTERM`, `SIGINT`) ends the loop in order; a
    /// signalfd that cannot be read fails it (`program`, "the daemon", names who in the log line).
    public func dispatch(into lifetime: inout LoopLifetime, program: String, reload: () -> Void) {
        do {
            try receive { s in
                if s == SIGHUP {
                    reload()
                } else {
                    Log.info("signal \(s): shutting down")
                    lifetime.finish()
                }
            }
        } catch { lifetime.fail(error, because: "signals (SIGTERM, SIGHUP) can no longer reach \(program)") }
    }
}
