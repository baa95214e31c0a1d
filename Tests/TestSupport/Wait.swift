import Foundation
import Glibc

/// Waiting for something a test can see (a file, a log line, a state) instead of sleeping a guessed time:
/// the condition is polled until it holds or the deadline passes.
public enum Wait {
    /// Polls `condition` every few milliseconds for at most `seconds`; true as soon as it holds, false
    /// when the deadline passed without it (the caller fails the test, saying what it waited for).
    @discardableResult
    public static func until(seconds: Double = 10, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if condition() { return true }
            if Date() >= deadline { return false }
            usleep(10_000)
        }
    }
}
