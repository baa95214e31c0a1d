/// What one ``ClientConnection/read(_:)`` call found, after handing on every complete line it read.
public enum ClientReadOutcome {
    /// Everything the client sent was read (the next read would block); the connection stays.
    case open
    /// End of file: the client shut down its sending side (`shutdown(SHUT_WR)`, as `nc -N` and `socat`
    /// do after a request) or hung up. What it sent before is answered (a last line without its newline
    /// too), then the connection closes.
    case endOfInput
    /// The socket failed (`ECONNRESET` and the like): close it.
    case closed
    /// The bytes after the last newline exceed ``ClientConnection/maximumLine``.
    case lineTooLong
}
