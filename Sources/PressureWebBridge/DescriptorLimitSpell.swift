/// What the bridge says of a spell at the descriptor limit, so a flood of browsers cannot flood the
/// journal (`docs/web.md`, "At the descriptor limit"). Pure: the loop passes its monotonic clock in.
///
/// | state     | event      | next                 | line          |
/// |-----------|------------|----------------------|---------------|
/// | `quiet`   | `failed`   | `atLimit`            | ``Line/warning`` |
/// | `atLimit` | `failed`   | `atLimit`, counted   | none          |
/// | `atLimit` | `served`   | `quiet`              | ``Line/summary(seconds:failures:refused:)`` |
/// | `quiet`   | `served`   | `quiet`              | none          |
public struct DescriptorLimitSpell: Equatable, Sendable {
    public enum State: Equatable, Sendable {
        /// Browsers are accepted.
        case quiet
        /// Since `since` accepting or reaching the daemon failed `failures` times, `refused` of which
        /// were browsers answered 503.
        case atLimit(since: Int64, failures: Int, refused: Int)
    }

    public enum Event: Sendable {
        /// Accepting a browser, or its connection to the daemon, failed; `refused`: the browser was
        /// answered 503 (else it waits in the backlog while the listeners rest).
        case failed(refused: Bool)
        /// A page was connected to the daemon.
        case served
    }

    /// What to log for an event.
    public enum Line: Equatable, Sendable {
        /// The spell began: the one warning.
        case warning
        /// The spell is over after `seconds`, with what it counted.
        case summary(seconds: Int64, failures: Int, refused: Int)
    }

    public private(set) var state = State.quiet
    /// Browsers answered 503 at the limit since start (the bridge's figures at exit).
    public private(set) var totalRefused = 0

    public init() {}

    /// The one transition function (the table above).
    public mutating func handle(_ event: Event, now: Int64) -> Line? {
        switch (state, event) {
        case (.quiet, .failed(let refused)):
            if refused { totalRefused += 1 }
            state = .atLimit(since: now, failures: 1, refused: refused ? 1 : 0)
            return .warning
        case (.atLimit(let since, let failures, let count), .failed(let refused)):
            if refused { totalRefused += 1 }
            state = .atLimit(since: since, failures: failures + 1, refused: count + (refused ? 1 : 0))
            return nil
        case (.atLimit(let since, let failures, let refused), .served):
            state = .quiet
            return .summary(seconds: (now - since) / 1_000_000, failures: failures, refused: refused)
        case (.quiet, .served):
            return nil
        }
    }
}
