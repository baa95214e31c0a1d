import PressureCore

/// What the loop logs about clients, so that nothing a client does floods the journal: lines about one
/// client (``Hub/Notice/client(_:)``, and the loop's own) go at their level within a ``LogRateLimit`` of
/// ``linesPerWindow`` a minute, at debug beyond it; after a window where some were held back, one
/// summary at info says what happened:
///
/// `clients in the last 60 s: 1480 connected, 1479 left, 3 turned away (too-many-clients); 6 connected
/// now; 2942 lines about them at debug only (--verbose)`
///
/// Pure: the loop passes its monotonic clock in and arms its timer for ``summaryDue``.
public struct ClientActivityLog: Equatable, Sendable {
    /// What the summary counts.
    public enum Event: Sendable {
        case connected, left, refused
    }

    /// Lines about clients written at their own level per window.
    public static let linesPerWindow = 20

    public private(set) var limit: LogRateLimit
    private var connected = 0
    private var left = 0
    private var refused = 0

    public init(windowMicroseconds: Int64 = 60_000_000) {
        limit = LogRateLimit(budget: Self.linesPerWindow, windowMicroseconds: windowMicroseconds)
    }

    /// Counts a client connecting, leaving or being turned away, for the summary.
    public mutating func count(_ event: Event, now: Int64) {
        beginWindowIfOver(now)
        switch event {
        case .connected: connected += 1
        case .left: left += 1
        case .refused: refused += 1
        }
    }

    /// Whether a line about a client, at `now`, is written at its level (true) or at debug (false).
    public mutating func admit(now: Int64) -> Bool {
        beginWindowIfOver(now)
        return limit.admit(now: now)
    }

    /// When the summary is due (nil: none will be, as nothing was held back).
    public var summaryDue: Int64? { limit.summaryDue }

    /// At or after ``summaryDue``: the summary of the window that is over (`connectedNow`: the clients
    /// connected at this moment); nil before then, or when every line was written. With `early` (the
    /// daemon is stopping), the summary of the window so far, whenever it is.
    public mutating func takeSummary(now: Int64, connectedNow: Int, early: Bool = false) -> String? {
        guard let (held, seconds) = limit.takeHeldBackAndSpan(now: now, early: early) else { return nil }
        defer { resetCounts() }
        return "clients in the last \(seconds) s: \(connected) connected, \(left) left, \(refused) turned away "
            + "(too-many-clients); \(connectedNow) connected now; \(held) line\(held == 1 ? "" : "s") about them "
            + "at debug only (--verbose)"
    }

    private mutating func beginWindowIfOver(_ now: Int64) {
        if limit.beginWindowIfOver(now: now) { resetCounts() }
    }

    private mutating func resetCounts() {
        connected = 0
        left = 0
        refused = 0
    }
}
