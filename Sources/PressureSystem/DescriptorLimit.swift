import Glibc

/// The process's descriptor limit (RLIMIT_NOFILE; `LimitNOFILE=` under systemd), for the warnings the
/// daemon and the web bridge write at it.
public enum DescriptorLimit {
    /// The soft limit; nil when unlimited or not to be read.
    public static var soft: Int? {
        var rl = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &rl) == 0, rl.rlim_cur != rlim_t.max else {  // RLIM_INFINITY
            return nil
        }
        return Int(clamping: rl.rlim_cur)
    }

    /// `; RLIMIT_NOFILE 512` for a warning, empty when there is no limit to tell.
    public static var phrase: String { soft.map { "; RLIMIT_NOFILE \($0)" } ?? "" }
}
