/// What one ``UnixListener/accept(refusingWith:)`` came to.
public enum AcceptOutcome {
    /// A connection, for the loop to serve or turn away (at `MaxClients`).
    case client(ClientConnection)
    /// Nobody is waiting.
    case nonePending
    /// No descriptor was left for the connection waiting (`EMFILE`, `ENFILE`): it was taken with the
    /// reserve descriptor, sent the refusal line and closed, and the reserve taken again.
    case refused(SystemError)
    /// Accepting cannot go on for now: out of descriptors with no reserve to spend, or a failure that may
    /// last (``AcceptFailure/other``). The loop stops polling the listener until a descriptor frees or a
    /// while has passed, so that a level-triggered listener cannot spin it.
    case unavailable(SystemError)
}
