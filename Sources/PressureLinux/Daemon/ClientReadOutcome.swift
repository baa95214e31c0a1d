/// What one ``ClientConnection/read(_:)`` call found, after handing on every complete line it read.
public enum ClientReadOutcome {
    /// Everything the client sent was read (the next read would block); the connection stays.
    case open
    /// The client hung up, or its socket failed: close it.
    case closed
    /// The bytes after the last newline exceed ``ClientConnection/maximumLine``.
    case lineTooLong
}
