import Glibc

/// Whether the process's descriptor limit (RLIMIT_NOFILE; `LimitNOFILE=` under systemd) holds
/// `MaxClients`: told at start and after a reload, so that an operator who raised the cap hears that
/// the limit will stop newcomers first.
enum DescriptorBudget {
    /// The soft limit; nil when unlimited or not to be read.
    static var limit: Int? { DescriptorLimit.soft }

    /// Descriptors open now (`/proc/self/fd`, the one reading it aside); nil where it cannot be read.
    static var openCount: Int? {
        guard let dir = opendir("/proc/self/fd") else { return nil }
        defer { closedir(dir) }
        var n = 0
        while let entry = readdir(dir) {
            let first = withUnsafeBytes(of: entry.pointee.d_name) { $0.first ?? 0 }
            if first != UInt8(ascii: ".") { n += 1 }
        }
        return n - 1
    }

    /// A warning when the limit is short of what `maximumClients` clients need: the descriptors open now
    /// but the `clients`' own (devices, the listener, epoll, timers, and the reserve, which a newcomer
    /// turned away at the cap can use), and one for each client. Nil when it holds (or cannot be told).
    static func shortfall(maximumClients: Int, clients: Int) -> String? {
        guard let limit, let open = openCount else { return nil }
        let own = open - clients
        let needed = own + maximumClients
        guard limit < needed else { return nil }
        return "RLIMIT_NOFILE is \(limit), fewer than MaxClients = \(maximumClients) needs (\(needed): the "
            + "\(own) descriptors the daemon holds without clients, one a client): past about "
            + "\(max(0, limit - own)) clients newcomers are turned away for want of a "
            + "descriptor; raise LimitNOFILE= (ulimit -n) or lower MaxClients"
    }
}
