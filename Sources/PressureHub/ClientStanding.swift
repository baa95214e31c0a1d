import PressureCore

/// Where a client stands between connecting and its socket being closed: what it may still be sent, and
/// when the loop is to close it. A connection is closed only once what it is owed is written, so the last
/// thing a client reads is a whole line: the answers to what it asked, or the error that says why it goes.
///
/// | from | input | to | the loop closes the socket |
/// |---|---|---|---|
/// | `open` | `inputEnded` (it shut down its sending side, or hung up) | `answering` | |
/// | `open`, `answering` | `fatal` (a fatal error, or its queue is full) | `closing` | |
/// | `answering`, `closing` | `written` (its queue is empty, no answer owed) | `closed` | yes |
/// | `open` | `written` | `open` | |
/// | `answering`, `closing`, `closed` | `inputEnded` | unchanged | |
/// | `closing`, `closed` | `fatal` | unchanged | |
/// | `closed` | `written` | `closed` | |
///
/// The loop closes the socket at once, whatever the standing, when a write fails (the peer is gone).
enum ClientStanding: Equatable, Sendable {
    /// Gets what it subscribed to and the answers to its requests.
    case open
    /// Its input ended: it gets the answers to the requests it sent before, nothing else, and is closed
    /// once they are written.
    case answering
    /// Being closed: its last lines (a `dismiss` for each peek and a `cancelled` for each contact still
    /// open for it, then the error) are queued, nothing more is, and it is closed once they are written.
    case closing
    /// The loop was asked to close its socket; it leaves the table when the loop says it has.
    case closed

    enum Input: Equatable, Sendable {
        case inputEnded
        case fatal
        case written
    }

    /// Takes one input; returns whether the loop is now to close the socket.
    mutating func handle(_ input: Input) -> Bool {
        switch (self, input) {
        case (.open, .inputEnded):
            self = .answering
        case (.open, .fatal), (.answering, .fatal):
            self = .closing
        case (.answering, .written), (.closing, .written):
            self = .closed
            return true
        case (.open, .written), (.closed, .written),
             (.answering, .inputEnded), (.closing, .inputEnded), (.closed, .inputEnded),
             (.closing, .fatal), (.closed, .fatal):
            break
        }
        return false
    }

    /// Whether it may be sent a line: `alone` when the line is addressed to it alone, `answer` when the
    /// line answers a request (a reply, an error, a notice about its own queue).
    func receives(alone: Bool, answer: Bool) -> Bool {
        switch self {
        case .open: return true
        case .answering: return alone && answer
        case .closing, .closed: return false
        }
    }
}
