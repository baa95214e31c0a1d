import Foundation
import XCTest

/// The package's built executables, found beside the test bundle (`swift build` builds them), run from
/// the repository's root so relative fixture paths work. Shared by the Linux-layer and client tests.
public enum Executables {
    public static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func url(_ name: String) throws -> URL {
        // On Linux the test bundle is a file in the build folder; elsewhere a directory inside it.
        var folder = Bundle(for: Marker.self).bundleURL
        if folder.pathExtension == "xctest" { folder.deleteLastPathComponent() }
        let beside = folder.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: beside.path) else {
            throw NotBuilt(path: beside.path)
        }
        return beside
    }

    public struct Result {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `name` with `arguments` to completion; after `timeout` seconds it is stopped and the test fails.
    public static func run(_ name: String, _ arguments: [String], timeout: Double = 120,
                           file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let p = Process()
        p.executableURL = try url(name)
        p.arguments = arguments
        p.currentDirectoryURL = repoRoot
        // Files rather than pipes: a large output can never fill a pipe and stall the child.
        let dir = FileManager.default.temporaryDirectory
        let outURL = dir.appendingPathComponent("pressured-out-\(UUID().uuidString)")
        let errURL = dir.appendingPathComponent("pressured-err-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: outURL)
            try? FileManager.default.removeItem(at: errURL)
        }
        p.standardOutput = try FileHandle(forWritingTo: outURL)
        p.standardError = try FileHandle(forWritingTo: errURL)
        try p.run()
        if !Wait.until(seconds: timeout, { !p.isRunning }) {
            p.terminate()
            XCTFail("\(name) \(arguments) still running after \(timeout) s", file: file, line: line)
        }
        p.waitUntilExit()
        return Result(status: p.terminationStatus,
                      stdout: try String(contentsOf: outURL, encoding: .utf8),
                      stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    final class Marker {}

    struct NotBuilt: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is not built: run `swift build` before `swift test`" }
    }
}
