import Glibc

/// systemd socket activation: a listening socket passed as fd 3 (`LISTEN_FDS=1`, `LISTEN_PID` = us).
public enum SocketActivation {
    /// The first passed descriptor, when the environment says it is ours.
    public static func listeningFD() -> Int32? {
        guard let pidText = getenv("LISTEN_PID").map({ String(cString: $0) }), Int32(pidText) == getpid(),
            let fdsText = getenv("LISTEN_FDS").map({ String(cString: $0) }), let count = Int(fdsText), count >= 1
        else { return nil }
        // Not for our children.
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fd: Int32 = 3
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }
}
