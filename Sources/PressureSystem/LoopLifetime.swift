import PressureCommandLine

/// Whether an event loop goes on, and the status it exits with: one rule for the daemon's loop and the
/// web bridge's.
///
/// A descriptor the loop cannot do without (the timerfd, the signalfd, the watchdog's timer) that fails
/// means no deadline would fire, or no signal arrive, again, and a descriptor left readable would spin
/// the loop: ``fail(_:because:)`` says so once, at error level, and stops the loop as `SIGTERM` does (the
/// owner still says goodbye to its clients) but with exit status 1, so that systemd
/// (`Restart=on-failure`) starts a fresh process. Once stopping, later failures are not logged again.
public struct LoopLifetime: Sendable {
    public private(set) var running = true
    public private(set) var exitStatus: Int32 = 0

    public init() {}

    /// An orderly end (`SIGTERM`, `SIGINT`, a replay done with `--exit-when-done`): the status stays.
    public mutating func finish() { running = false }

    /// The loop cannot go on because `error`; `consequence` says what no longer works.
    public mutating func fail(_ error: SystemError, because consequence: String) {
        guard running else { return }
        Log.error("\(error): \(consequence); stopping")
        running = false
        exitStatus = 1
    }
}
