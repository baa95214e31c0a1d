import Glibc

/// systemd socket activation: descriptors passed from fd 3 on (`LISTEN_FDS=N`, `LISTEN_PID` = us), named by
/// `LISTEN_FDNAMES`: listening sockets (named for their socket unit), and what the service put in systemd's
/// file descriptor store (`FDSTORE=1`, named by its `FDNAME=`), given back when it restarts.
public enum SocketActivation {
    /// The passed descriptors, split: `stored` are those whose name starts with one of `storedPrefixes`.
    public struct Passed: Equatable, Sendable {
        /// Listening sockets, in the order passed.
        public var listening: [Int32] = []
        /// Stored descriptors by their name (a name given twice keeps the first: ``duplicates``).
        public var stored: [String: Int32] = [:]
        /// Descriptors passed twice under one stored name, for the caller to close.
        public var duplicates: [Int32] = []

        /// `count` descriptors from fd 3, named by `names` (`LISTEN_FDNAMES`, colon-separated; systemd
        /// names a socket unit's descriptors for the unit, so a missing or short list means sockets).
        public init(count: Int, names: String?, storedPrefixes: [String]) {
            let named = names.map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
            for i in 0..<max(0, count) {
                let fd = 3 + Int32(i)
                let name = i < named.count ? named[i] : ""
                if storedPrefixes.contains(where: { !$0.isEmpty && name.hasPrefix($0) }) {
                    if stored[name] == nil { stored[name] = fd } else { duplicates.append(fd) }
                } else {
                    listening.append(fd)
                }
            }
        }
    }

    /// The first passed listening socket, when the environment says it is ours.
    public static func listeningFD() -> Int32? {
        listeningFDs().first
    }

    /// Every passed descriptor (fd 3 onwards, `LISTEN_FDS` of them), when the environment says they are
    /// ours; empty otherwise. A unit with several `ListenStream=` lines passes several.
    public static func listeningFDs() -> [Int32] {
        passed(storedPrefixes: []).listening
    }

    /// The passed descriptors, sockets and stored ones apart (``Passed``), once: the variables are unset, not
    /// for our children, and every descriptor is made close-on-exec.
    public static func passed(storedPrefixes: [String]) -> Passed {
        guard let pidText = getenv("LISTEN_PID").map({ String(cString: $0) }), Int32(pidText) == getpid(),
            let fdsText = getenv("LISTEN_FDS").map({ String(cString: $0) }), let count = Int(fdsText), count >= 1,
            count <= 1024
        else { return Passed(count: 0, names: nil, storedPrefixes: []) }
        let names = getenv("LISTEN_FDNAMES").map { String(cString: $0) }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        for fd in 3..<(3 + Int32(count)) { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return Passed(count: count, names: names, storedPrefixes: storedPrefixes)
    }
}
