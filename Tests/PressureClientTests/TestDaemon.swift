import Foundation
import Glibc
import PressureClient
import XCTest

/// The repository and the built executables (beside the test bundle: `swift build` builds them).
enum Built {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url(_ name: String) throws -> URL {
        var folder = Bundle(for: Marker.self).bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        let beside = folder.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: beside.path) else {
            throw TestError("\(beside.path) is not built: run `swift build` before `swift test`")
        }
        return beside
    }

    final class Marker {}

    /// Runs `name` to completion (killed after `timeout` seconds); status, stdout and stderr.
    static func run(_ name: String, _ arguments: [String], timeout: Double = 30) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = try url(name)
        p.arguments = arguments
        p.currentDirectoryURL = repoRoot
        // Files rather than pipes: output can never fill a pipe and stall the child.
        let dir = try TemporaryFolder()
        let out = dir.url.appendingPathComponent("out"), err = dir.url.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        let deadline = Date().addingTimeInterval(timeout)
        while p.isRunning && Date() < deadline { usleep(10_000) }
        if p.isRunning {
            p.terminate()
            p.waitUntilExit()
            XCTFail("\(name) \(arguments) still running after \(timeout) s")
        }
        p.waitUntilExit()
        return (p.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
    }
}

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

/// A real `pressured` on a given socket path.
final class TestDaemon {
    let process = Process()
    let socketPath: String
    let logURL: URL

    /// Starts `pressured ARGUMENTS --socket PATH` and waits until the socket accepts connections.
    init(_ arguments: [String], socketPath: String, logURL: URL) throws {
        self.socketPath = socketPath
        self.logURL = logURL
        if !FileManager.default.fileExists(atPath: logURL.path) {
            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        }
        process.executableURL = try Built.url("pressured")
        process.arguments = arguments + ["--socket", socketPath]
        process.currentDirectoryURL = Built.repoRoot
        let log = try FileHandle(forWritingTo: logURL)
        log.seekToEndOfFile()
        process.standardError = log
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let c = RawClient(path: socketPath) {
                c.close()
                return
            }
            if !process.isRunning { break }
            usleep(20_000)
        }
        throw TestError("pressured did not start: \(self.log)")
    }

    /// A replay of `Tests/Fixtures/FIXTURE` in `folder`.
    convenience init(replay fixture: String, in folder: TemporaryFolder, extra: [String] = []) throws {
        try self.init(
            ["--replay", "Tests/Fixtures/\(fixture)"] + extra, socketPath: folder.url.appendingPathComponent("s.sock").path,
            logURL: folder.url.appendingPathComponent("daemon.log"))
    }

    var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    /// SIGTERM (the daemon says `bye`), then waits for the exit; returns the status.
    @discardableResult
    func stop(timeout: Double = 10) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        return wait(timeout: timeout)
    }

    @discardableResult
    func wait(timeout: Double = 10) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
}

/// A plain blocking socket client, independent of the library under test, to see the daemon's bytes.
final class RawClient {
    let fd: Int32

    init?(path: String) {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let r = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if r != 0 {
            Glibc.close(fd)
            return nil
        }
    }

    func close() { Glibc.close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything until the daemon closes (or `timeout` seconds pass without a byte).
    func readAll(timeout: Double = 30) -> String {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { break }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            data += chunk[0..<n]
        }
        return String(decoding: data, as: UTF8.self)
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
