import Glibc

/// `accept4` on a non-blocking listener with its failures handled by kind (``AcceptFailure``), and one
/// descriptor kept in reserve (`/dev/null`) for `EMFILE`: the connection is then taken with the reserve's
/// number, given the caller's refusal (the daemon's `too-many-clients`, the bridge's HTTP 503), closed,
/// and the reserve opened again.
///
/// Rather than only ceasing to poll the listener: the newcomer gets an answer at once, the backlog cannot
/// fill, and the loop cannot spin. Where even the reserve is gone the caller rests the listener
/// (``GuardedAccept/unavailable(_:)``, ``ListenerRest``). A class: it owns the reserve descriptor, which
/// a copy would close twice.
public final class AcceptGuard {
    /// The descriptor kept for refusing a connection when none is left; nil while spent.
    private var reserve: Int32? = nil
    /// `accept4` calls made, every one (what a test bounds to show the loop does not spin).
    public private(set) var attempts = 0
    /// `accept4` calls that failed, `EAGAIN` aside.
    public private(set) var failures = 0

    /// Holds no reserve yet: the listener calls ``restoreReserve()`` once its own socket is open, so that
    /// at a tight limit the listener gets the descriptor and only the reserve goes without.
    public init() {}

    deinit { releaseReserve() }

    /// Whether a descriptor is held in reserve.
    public var hasReserve: Bool { reserve != nil }

    /// Opens the reserve descriptor if it is spent (at start, and when the loop stops resting the
    /// listener); false when no descriptor is left for it either.
    @discardableResult
    public func restoreReserve() -> Bool {
        if reserve == nil {
            let r = open("/dev/null", O_RDONLY | O_CLOEXEC)
            if r >= 0 { reserve = r }
        }
        return reserve != nil
    }

    /// Closes the reserve for good (the listener stops).
    public func releaseReserve() {
        if let r = reserve { close(r) }
        reserve = nil
    }

    /// Accepts one pending connection: `call` is the `accept4` (non-blocking, so `-1` with `EAGAIN`
    /// when nobody waits), named `subject` in errors. A connection that went before it was taken is
    /// passed over; one for which no descriptor is left is handed to `refuse` on the reserve's number
    /// (which writes its answer and closes it); anything else is for the loop to wait out.
    public func accept(_ subject: String, _ call: () -> Int32, refuse: (Int32) -> Void) -> GuardedAccept<Int32> {
        while true {
            attempts += 1
            do {
                guard let c = try nonblockingSyscall("accept4", subject, call) else { return .nonePending }
                return .accepted(c)
            } catch {
                failures += 1
                switch AcceptFailure(errno: error.errno) {
                case .connectionGone: continue
                case .outOfDescriptors: return refuseWithReserve(subject, call, refuse, error)
                case .other: return .unavailable(error)
                }
            }
        }
    }

    /// Spends the reserve on the connection no descriptor was left for, and takes the reserve back.
    private func refuseWithReserve(
        _ subject: String, _ call: () -> Int32, _ refuse: (Int32) -> Void, _ error: SystemError
    ) -> GuardedAccept<Int32> {
        guard let r = reserve else { return .unavailable(error) }
        close(r)
        reserve = nil
        defer { restoreReserve() }
        attempts += 1
        let taken: Int32?
        do { taken = try nonblockingSyscall("accept4", subject, call) } catch {
            failures += 1
            return AcceptFailure(errno: error.errno) == .connectionGone ? .nonePending : .unavailable(error)
        }
        // It went meanwhile, or there was none: Linux's accept4 wants a descriptor before it looks at the
        // queue, so at the limit it says EMFILE with nobody waiting too (each wake ends so, at a cost of
        // two calls, not a spin).
        guard let c = taken else { return .nonePending }
        refuse(c)
        return .refused(error)
    }
}
