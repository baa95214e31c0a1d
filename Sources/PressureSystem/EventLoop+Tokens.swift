import PressureCommandLine

/// The loop with typed tokens (``EpollToken``): what the daemon's and the web bridge's loops register
/// and are woken with, so neither decodes the 64 bits itself. Inlinable, to be specialised for each
/// program's `Kind` (see ``EpollToken``).
extension EventLoop {
    @inlinable
    public func add<Kind>(_ target: Int32, token: EpollToken<Kind>, events: UInt32 = EventLoop.readable) throws(SystemError) {
        try add(target, token: token.rawValue, events: events)
    }

    @inlinable
    public func modify<Kind>(_ target: Int32, token: EpollToken<Kind>, events: UInt32) throws(SystemError) {
        try modify(target, token: token.rawValue, events: events)
    }

    /// Waits as ``wait(timeoutMilliseconds:_:)`` and calls `body` with each ready token decoded; one whose
    /// kind is not a `Kind` (never registered so) is logged and passed over.
    @inlinable
    public func wait<Kind>(
        for _: Kind.Type, timeoutMilliseconds: Int32 = -1, _ body: (EpollToken<Kind>, UInt32) -> Void
    ) throws(SystemError) {
        try wait(timeoutMilliseconds: timeoutMilliseconds) { raw, events in
            guard let token = EpollToken<Kind>(rawValue: raw) else {
                Log.warning("event for unknown token \(raw)")
                return
            }
            body(token, events)
        }
    }
}
