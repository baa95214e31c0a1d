import Glibc

/// What an `accept4` failure (its errno) means for a loop (the daemon's and the web bridge's). `EINTR`
/// never gets here: the syscall funnel retries it; nor do `EAGAIN`/`EWOULDBLOCK`: nobody is waiting.
public enum AcceptFailure: Equatable, Sendable {
    /// The connection went before it was taken (`ECONNABORTED`), or came with an error of its own, which
    /// Linux's accept(2) says to treat as "try again" (`EPROTO`, `ENETDOWN`, `ENOPROTOOPT`, `EHOSTDOWN`,
    /// `ENONET`, `EHOSTUNREACH`, `EOPNOTSUPP`, `ENETUNREACH`): take the next one at once.
    case connectionGone
    /// No descriptor for it: the process's limit (`EMFILE`, RLIMIT_NOFILE) or the system's (`ENFILE`).
    case outOfDescriptors
    /// Anything else (`ENOBUFS`, `ENOMEM`, `EPERM` from a security module, a broken listener): it may
    /// last, so the listener rests a while rather than be retried at once.
    case other

    public init(errno e: Int32) {
        switch e {
        case ECONNABORTED, EPROTO, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH, EOPNOTSUPP, ENETUNREACH:
            self = .connectionGone
        case EMFILE, ENFILE:
            self = .outOfDescriptors
        default:
            self = .other
        }
    }
}
