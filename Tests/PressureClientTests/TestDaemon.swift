import Foundation
import Glibc
import PressureClient
import TestSupport
import XCTest

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A folder under the temporary directory, removed with its contents when released. Short names: socket
/// paths must fit 107 bytes.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = URL(fileURLWithPath: "/tmp/pressured-client-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

extension DaemonProcess {
    /// A replay of `Tests/Fixtures/FIXTURE`, its socket and log in `folder` (`calibrated`: see
    /// ``DaemonProcess/fixtureCalibration``).
    convenience init(replay fixture: String, in folder: TemporaryFolder, extra: [String] = [], calibrated: Bool = false)
        throws
    {
        try self.init(
            ["--replay", "Tests/Fixtures/\(fixture)"] + extra, socketPath: folder.url.appendingPathComponent("s.sock").path,
            logURL: folder.url.appendingPathComponent("daemon.log"), calibrated: calibrated)
    }
}

/// Fails the test instead of letting it hang: after `seconds`, runs `onTimeout` (closing the connection
/// under test, which fails whatever waits on it).
final class Watchdog: Sendable {
    private let task: Task<Void, Never>

    init(seconds: Double, file: StaticString = #filePath, line: UInt = #line, onTimeout: @escaping @Sendable () -> Void) {
        task = Task {
            do { try await Task.sleep(for: .seconds(seconds)) } catch { return }
            XCTFail("timed out after \(seconds) s", file: file, line: line)
            onTimeout()
        }
    }

    func cancel() { task.cancel() }
    deinit { task.cancel() }
}

extension ClientEvents {
    /// Events until (and including) the first for which `stop` is true, or the end of the sequence.
    func collect(until stop: (ClientEvent) -> Bool = { _ in false }) async throws(PressuredClientError) -> [ClientEvent] {
        var events: [ClientEvent] = []
        for try await e in self {
            events.append(e)
            if stop(e) { break }
        }
        return events
    }
}
