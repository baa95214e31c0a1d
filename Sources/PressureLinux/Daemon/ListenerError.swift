/// Why the daemon's socket could not be set up.
public enum ListenerError: Error, CustomStringConvertible {
    case system(SystemError)
    /// Another pressured answers on the path.
    case alreadyServed(String)
    case pathTooLong(String)
    case unknownGroup(String)

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .alreadyServed(let p): return "\(p): another pressured is already serving this socket; stop it or pass --socket"
        case .pathTooLong(let p): return "\(p): socket path too long for a Unix socket"
        case .unknownGroup(let g): return "no such group '\(g)' (--group)"
        }
    }
}
