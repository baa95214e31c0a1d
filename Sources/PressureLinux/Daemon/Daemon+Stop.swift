import PressureCommandLine

extension Daemon {
    /// A descriptor the loop cannot do without failed (the timerfd or the signalfd): no deadline would
    /// fire, or no signal arrive, again, and a descriptor left readable would spin the loop. Says so once,
    /// at error level, and stops as `SIGTERM` does (clients told, learning saved) but with exit status 1,
    /// so that systemd (`Restart=on-failure`) starts a fresh daemon. Once stopping, later failures are
    /// not logged again.
    func stop(_ error: SystemError, because consequence: String) {
        guard running else { return }
        Log.error("\(error): \(consequence); stopping")
        running = false
        exitStatus = 1
    }
}
