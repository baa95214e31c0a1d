import PressureCore

/// A budget for a log line a flood could repeat without end (a client reconnecting in a loop, `accept`
/// failing at the descriptor limit): at most `budget` lines a window, the rest held back and counted,
/// and once a window in which some were held back is over, one line saying how many
/// (``takeHeldBack(now:)``, which the loop's timer calls at ``summaryDue``).
///
/// Pure, with the time passed in (the loop's monotonic microseconds). A window begins with the first line
/// after a quiet spell, so an idle daemon never wakes for it; a line held back is never lost from the
/// count, however late the timer.
public struct LogRateLimit: Equatable, Sendable {
    /// How long a window lasts, in microseconds.
    public let window: Int64
    /// Lines a window may write.
    public let budget: Int
    /// When the current window began; nil between windows.
    public private(set) var windowStart: Int64? = nil
    private var written = 0
    /// Lines held back in the current window.
    public private(set) var heldBack = 0

    public init(budget: Int, windowMicroseconds: Int64 = 60_000_000) {
        self.budget = budget
        window = windowMicroseconds
    }

    /// Begins a window at `now` unless one is running; true when it began one. A window that is over
    /// with nothing held back just ends; one with lines held back lasts until they are reported.
    public mutating func beginWindowIfOver(now: Int64) -> Bool {
        if let start = windowStart {
            guard now - start >= window, heldBack == 0 else { return false }
        }
        windowStart = now
        written = 0
        return true
    }

    /// Whether a line that comes at `now` is written (true) or held back (false, and counted).
    public mutating func admit(now: Int64) -> Bool {
        _ = beginWindowIfOver(now: now)
        if written < budget {
            written += 1
            return true
        }
        heldBack += 1
        return false
    }

    /// How long the window lasted at `now`, in seconds as a summary says it (`60`, `1.5`): the whole
    /// window, or with `early` (the daemon is stopping) the part of it so far.
    public func span(now: Int64, early: Bool) -> String {
        let t = early ? now - (windowStart ?? now) : window
        return t % 1_000_000 == 0 ? "\(t / 1_000_000)" : DecimalText.fixed(Double(t) / 1_000_000, 1)
    }

    /// When the window whose lines were held back ends (the loop arms its timer for it); nil when
    /// none were.
    public var summaryDue: Int64? { heldBack > 0 ? windowStart.map { $0 + window } : nil }

    /// At or after ``summaryDue`` (or at any time with `early`: the daemon is stopping): how many lines
    /// the window held back, and the window ends (the next line begins another). Nil before then, or
    /// when none were held back.
    public mutating func takeHeldBack(now: Int64, early: Bool = false) -> Int? {
        guard let due = summaryDue, early || now >= due else { return nil }
        defer {
            heldBack = 0
            windowStart = nil
        }
        return heldBack
    }

    /// ``takeHeldBack(now:early:)`` with the window's ``span(now:early:)`` as it was: what a summary line
    /// says. The span's text is made only when there is a summary to write: the loop asks at every timer
    /// expiry, which a paced replay has every frame.
    public mutating func takeHeldBackAndSpan(now: Int64, early: Bool = false) -> (count: Int, span: String)? {
        guard heldBack > 0 else { return nil }
        let span = span(now: now, early: early)
        return takeHeldBack(now: now, early: early).map { ($0, span) }
    }
}
