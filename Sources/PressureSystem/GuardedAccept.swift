/// What one ``AcceptGuard/accept(_:_:refuse:)`` came to; `Connection` is the accepted descriptor
/// (`Int32`) or what a listener wraps it in (``map(_:)``).
public enum GuardedAccept<Connection> {
    /// A connection, for the caller to serve (or turn away by its own rules).
    case accepted(Connection)
    /// Nobody is waiting.
    case nonePending
    /// No descriptor was left for the connection waiting (`EMFILE`): it was taken with the reserve
    /// descriptor, given the caller's refusal and closed, and the reserve taken again.
    case refused(SystemError)
    /// Accepting cannot go on for now: out of descriptors with no reserve to spend (`ENFILE`: another
    /// process took the slot the reserve freed), or a failure that may last (``AcceptFailure/other``).
    /// The loop stops polling the listener for a while (``ListenerRest``), so that a level-triggered
    /// listener cannot spin it.
    case unavailable(SystemError)

    /// The same outcome with the accepted connection wrapped by `wrap`.
    public func map<T>(_ wrap: (Connection) -> T) -> GuardedAccept<T> {
        switch self {
        case .accepted(let c): return .accepted(wrap(c))
        case .nonePending: return .nonePending
        case .refused(let e): return .refused(e)
        case .unavailable(let e): return .unavailable(e)
        }
    }
}

extension GuardedAccept: Equatable where Connection: Equatable {}
