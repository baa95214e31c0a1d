import Foundation
import Glibc
import TestSupport
import XCTest

/// A client that stops reading never delays the loop or the others: it loses touch events (and is told
/// how many), never gestures.
final class SlowClientTests: XCTestCase {
    func testAStuckClientDoesNotDelayAWellBehavedOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-slow-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("busy.evemu").path
        let gen = Process()
        gen.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        gen.arguments = ["python3", Executables.repoRoot.appendingPathComponent("tools/gen-capture.py").path,
                         "--seconds", "4", "--seed", "3", "-o", capture]
        gen.standardError = FileHandle.nullDevice
        try gen.run()
        gen.waitUntilExit()
        XCTAssertEqual(gen.terminationStatus, 0)
        let expected = try Executables.run("pressurectl", ["replay", capture]).stdout
            .split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(expected.count, 5)

        let d = try DaemonProcess(["--replay", capture, "--speed", "4"])
        let stuck = try SocketClient(path: d.socketPath)
        var size: Int32 = 4096  // a small socket buffer, so the daemon's queue is what fills
        setsockopt(stuck.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = stuck.readLine()
        stuck.send(#"{"request":"subscribe","events":["gestures","touches"]}"# + "\n")
        let good = try SocketClient(path: d.socketPath)
        _ = good.readLine()
        good.send(#"{"request":"subscribe","events":["gestures","devices"]}"# + "\n")
        var gestures: [String] = []
        while let line = good.readLine(timeout: 10) {
            if line.contains(#""contact":"#) { gestures.append(line) }
            if line.contains(#""change":"removed""#) { break }  // the replay ended
        }
        XCTAssertEqual(gestures, expected, "every gesture, on time, despite the stuck client")

        // Now the stuck client reads: every gesture is there, touches are missing, and it is told so.
        var stuckGestures: [String] = []
        var dropped = 0
        while let line = stuck.readLine(timeout: 2) {
            if line.contains(#""type":"dropped""#) { dropped += Int(line.split(separator: ":").last?.dropLast() ?? "0") ?? 0 }
            if line.contains(#""contact":"#) && !line.contains(#""type":"touch""#) { stuckGestures.append(line) }
        }
        XCTAssertEqual(stuckGestures, expected)
        XCTAssertGreaterThan(dropped, 0, d.log)
    }
}
