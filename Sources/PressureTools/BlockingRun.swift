import Dispatch
import Synchronization

/// The tools' entry points are synchronous (`main` returns an exit status); the client library is async.
enum BlockingRun {
    /// Runs `body` on Swift concurrency's threads and blocks this (main, non-cooperative) thread until it
    /// is done: the tools' entry points are synchronous.
    static func run(_ body: @escaping @Sendable () async -> Int32) -> Int32 {
        final class Outcome: Sendable {
            let done = DispatchSemaphore(value: 0)
            let status = Mutex<Int32>(0)
        }
        let outcome = Outcome()
        Task {
            let status = await body()
            outcome.status.withLock { $0 = status }
            outcome.done.signal()
        }
        outcome.done.wait()
        return outcome.status.withLock { $0 }
    }
}
