import Foundation
import Glibc

/// A real `pressured` process on a socket of its own, for protocol, client and tool tests.
public final class DaemonProcess {
    public let process = Process()
    public let socketPath: String
    /// The folder holding the socket (made for this daemon, and removed with it, unless a path was given).
    public let dir: URL
    public let logURL: URL
    private let ownsDir: Bool

    /// A configuration section that calibrates the project's fixture devices (`tools/make-fixtures.py`:
    /// an average touch of 252, as their warm-up taps teach), for tests about the protocol rather than
    /// learning: force is available from the first touch, and a change of settings changes it.
    public static let fixtureCalibration = """
        [pressured fixtures]
        MatchName = pressured fixture*
        PressureAverage = 252

        """

    /// Starts `pressured ARGUMENTS --socket PATH` and waits until the socket accepts connections. Without a
    /// `socketPath`, the socket and the log go to a fresh temporary folder; with one, the log (stderr,
    /// appended to) goes to `logURL`, beside the socket by default. `calibrated`: the fixtures' devices
    /// get ``fixtureCalibration`` (a first `--config`, so the test's own files still override it).
    /// `descriptorLimit`: RLIMIT_NOFILE of the daemon (set by a shell, `ulimit -n`, before it runs).
    public init(
        _ arguments: [String], socketPath: String? = nil, logURL: URL? = nil, calibrated: Bool = false,
        descriptorLimit: Int? = nil
    ) throws {
        if let socketPath {
            self.socketPath = socketPath
            dir = URL(fileURLWithPath: socketPath).deletingLastPathComponent()
            ownsDir = false
        } else {
            // Short names: socket paths must fit 107 bytes.
            dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            self.socketPath = dir.appendingPathComponent("s.sock").path
            ownsDir = true
        }
        self.logURL = logURL ?? dir.appendingPathComponent("stderr.log")
        if !FileManager.default.fileExists(atPath: self.logURL.path) {
            _ = FileManager.default.createFile(atPath: self.logURL.path, contents: nil)
        }
        let pressured = try Executables.url("pressured")
        process.executableURL = pressured
        var arguments = arguments
        if calibrated {
            let conf = dir.appendingPathComponent("fixtures.conf")
            try Self.fixtureCalibration.write(to: conf, atomically: true, encoding: .utf8)
            arguments = ["--config", conf.path] + arguments
        }
        // Never the system's /var/lib/pressured: what a test daemon learns stays beside its socket.
        process.arguments = arguments + ["--socket", self.socketPath, "--state-directory", dir.appendingPathComponent("state").path]
        if let descriptorLimit {
            // The shell sets the limit and becomes the daemon (same pid), so signals and the exit are its.
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", pressured.path]
                + (process.arguments ?? [])
            // A daemon built with AddressSanitizer: its leak check at exit needs descriptors of its own
            // (/proc/PID/task), which the limit leaves it none of, and would fail the exit status.
            var environment = ProcessInfo.processInfo.environment
            environment["ASAN_OPTIONS"] = (environment["ASAN_OPTIONS"].map { $0 + ":" } ?? "") + "detect_leaks=0"
            process.environment = environment
        }
        process.currentDirectoryURL = Executables.repoRoot
        let log = try FileHandle(forWritingTo: self.logURL)
        log.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var listening = false
        Wait.until {
            listening = (try? SocketClient(path: self.socketPath)).map { $0.close() } != nil
            return listening || !process.isRunning
        }
        guard listening else { throw DaemonDidNotStart(log: self.log) }
    }

    /// What it wrote to stderr so far.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// Waits at most `seconds` for `text` to appear in its log; false when it did not.
    public func waitForLog(_ text: String, seconds: Double = 10) -> Bool {
        Wait.until(seconds: seconds) { log.contains(text) }
    }

    public func signal(_ s: Int32) { kill(process.processIdentifier, s) }

    /// SIGTERM (the daemon says `bye`), then waits for the exit; returns the status.
    @discardableResult
    public func stop(seconds: Double = 10) -> Int32 {
        if process.isRunning { signal(SIGTERM) }
        return wait(seconds: seconds)
    }

    /// Waits for the exit (killing it after `seconds`) and returns the status.
    @discardableResult
    public func wait(seconds: Double = 10) -> Int32 {
        Wait.until(seconds: seconds) { !process.isRunning }
        if process.isRunning {
            signal(SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            signal(SIGKILL)
            process.waitUntilExit()
        }
        if ownsDir { try? FileManager.default.removeItem(at: dir) }
    }

    public struct DaemonDidNotStart: Error, CustomStringConvertible {
        public var log: String
        public var description: String { "pressured did not start: \(log)" }
    }
}
