import Glibc

/// systemd socket activation: listening sockets passed from fd 3 on (`LISTEN_FDS=N`, `LISTEN_PID` = us).
public enum SocketActivation {
    /// The first passed descriptor, when the environment says it is ours.
    public static func listeningFD() -> Int32? {
        listeningFDs().first
    }

    /// Every passed descriptor (fd 3 onwards, `LISTEN_FDS` of them), when the environment says they are
    /// ours; empty otherwise. A unit with several `ListenStream=` lines passes several.
    public static func listeningFDs() -> [Int32] {
        guard let pidText = getenv("LISTEN_PID").map({ String(cString: $0) }), Int32(pidText) == getpid(),
            let fdsText = getenv("LISTEN_FDS").map({ String(cString: $0) }), let count = Int(fdsText), count >= 1,
            count <= 64
        else { return [] }
        // Not for our children.
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        let fds = (0..<Int32(count)).map { 3 + $0 }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fds
    }
}
