import Foundation

/// A synthetic capture of ten contacts at 1 kHz from `tools/gen-capture.py`, in a temporary folder of its
/// own that goes with the value: a busy device for tests of slow and stuck clients.
public final class GeneratedCapture {
    public let path: String
    private let dir: URL

    public init(seconds: Int, seed: Int) throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-gen-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        path = dir.appendingPathComponent("busy.evemu").path
        let gen = Process()
        gen.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gen.arguments = ["python3", Executables.repoRoot.appendingPathComponent("tools/gen-capture.py").path,
                         "--seconds", "\(seconds)", "--seed", "\(seed)", "-o", path]
        gen.standardError = FileHandle.nullDevice
        try gen.run()
        gen.waitUntilExit()
        guard gen.terminationStatus == 0 else { throw Failed(status: gen.terminationStatus) }
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    public struct Failed: Error, CustomStringConvertible {
        public var status: Int32
        public var description: String { "tools/gen-capture.py exited with \(status)" }
    }
}
