import Foundation
import Glibc
import TestSupport
import XCTest

/// A client that stops reading never delays the loop or the others: it loses `moved` touch events (and is
/// told whose and how many), never gestures, nor a contact's `began` or end.
final class SlowClientTests: XCTestCase {
    func testAStuckClientDoesNotDelayAWellBehavedOne() throws {
        let generated = try GeneratedCapture(seconds: 4, seed: 3)
        let capture = generated.path
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

        // Now the stuck client reads: every gesture is there, every contact whole (its `began`, its latest
        // states, its end), `moved` events are missing, and it is told whose.
        var stuckGestures: [String] = []
        var stream = ClientStream()
        while let line = stuck.readLine(timeout: 2) {
            stream.take(line + "\n")
            if line.contains(#""contact":"#) && !line.contains(#""type":"touch""#) && !line.contains(#""type":"dropped""#) {
                stuckGestures.append(line)
            }
        }
        XCTAssertEqual(stuckGestures, expected)
        XCTAssertEqual(stream.problems, [])
        XCTAssertEqual(stream.open, [], "every contact it saw begin ended")
        XCTAssertGreaterThan(stream.began, 5)
        let notices = stream.lines.filter { $0["type"] as? String == "dropped" }
        let lost = notices.reduce(0) { $0 + ($1["touches"] as? Int ?? 0) }
        let listed = notices.flatMap { $0["contacts"] as? [[String: Any]] ?? [] }.reduce(0) { $0 + ($1["moved"] as? Int ?? 0) }
        XCTAssertGreaterThan(lost, 0, d.log)
        XCTAssertEqual(listed, lost, "every lost event is a listed contact's")
    }
}
