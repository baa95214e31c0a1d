import Foundation
import Glibc
import TestSupport
import XCTest

/// How connections end, over the real daemon's Unix socket: a client that half-closes after its requests
/// is answered first; one that sends requests and never reads is disconnected with the error whole; a
/// stuck client neither freezes a full-speed replay for the others nor keeps `--exit-when-done` from exiting.
final class DaemonConnectionEndTests: XCTestCase {
    func fixture(_ name: String) -> String { "Tests/Fixtures/\(name)" }

    /// Whether the daemon has closed the connection: what is left is read, then end of file (not merely
    /// nothing for now, which the non-blocking read would say with EAGAIN).
    func closedByDaemon(_ c: SocketClient) -> Bool {
        var p = pollfd(fd: c.fd, events: Int16(POLLIN), revents: 0)
        var byte: UInt8 = 0
        while poll(&p, 1, 10_000) > 0 {
            let n = recv(c.fd, &byte, 1, Int32(MSG_DONTWAIT))
            if n == 0 { return true }
            if n < 0 { return false }
        }
        return false
    }

    func testRequestsFollowedAtOnceByAHalfCloseAreAnsweredThenTheConnectionCloses() throws {
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu")])
        for requests in [
            [#"{"request":"status","id":1}"#],
            [#"{"request":"ping","id":1}"#, #"{"request":"devices","id":2}"#, #"{"request":"reload","id":3}"#],
            [#"{"request":"subscribe","id":1,"events":["gestures","touches","devices"]}"#],
        ] {
            let c = try SocketClient(path: d.socketPath)
            c.send(requests.map { $0 + "\n" }.joined())
            XCTAssertEqual(shutdown(c.fd, Int32(SHUT_WR)), 0)  // as `nc -N` and `socat` do
            var got = ClientStream()
            got.take(c.readText(timeout: 10))
            got.finish()
            XCTAssertEqual(got.problems, [])
            XCTAssertEqual(got.types.first, "hello")
            // Every request gets its answer (a `reload` from a peer without control rights: not-permitted).
            let answers = got.lines.filter { $0["type"] as? String == "reply" || $0["type"] as? String == "error" }
            XCTAssertEqual(answers.map { $0["id"] as? Int }, (1...requests.count).map { $0 }, "\(got.lines)")
            // Nothing but the answers -- except after a subscription: the daemon may read the request before
            // the end of file arrives (two segments on a loaded machine), and until then the client is a
            // subscriber like any other, so events of the replay its subscription started may come between.
            let subscribed = requests.contains { $0.contains(#""subscribe""#) }
            let extra = got.lines.count - (1 + requests.count)
            if subscribed {
                XCTAssertGreaterThanOrEqual(extra, 0, "\(got.types)")
            } else {
                XCTAssertEqual(extra, 0, "nothing but the answers: \(got.types)")
            }
            XCTAssertTrue(closedByDaemon(c), "closed once the answers are written")
        }
        // And the daemon carries on.
        let after = try SocketClient(path: d.socketPath)
        _ = after.readLine()
        after.send(#"{"request":"ping","id":9}"# + "\n")
        XCTAssertTrue(after.readLine()?.contains(#""id":9"#) ?? false, d.log)
    }

    func testManyRequestsBeforeAHalfCloseAreAllAnsweredInOrder() throws {
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu")])
        let c = try SocketClient(path: d.socketPath)
        _ = c.readLine()
        c.send(#"{"request":"ping","id":0}"# + "\n")
        let size = (c.readLine()?.utf8.count ?? 60) + 2
        // Some 230 KB of answers: more than the socket holds (about 200 KB), less than the queue (252 KB),
        // so the daemon goes on writing after the client's end of file. (All the requests are read before
        // anything is written: answers beyond the queue would be `too-slow`.)
        let count = 230_000 / size
        c.send((0..<count).map { #"{"request":"ping","id":\#($0)}"# + "\n" }.joined())
        XCTAssertEqual(shutdown(c.fd, Int32(SHUT_WR)), 0)
        var got = ClientStream()
        got.take(c.readText(timeout: 10))
        got.finish()
        XCTAssertEqual(got.problems, [])
        let ids = got.lines.filter { $0["type"] as? String == "reply" }.compactMap { $0["id"] as? Int }
        XCTAssertEqual(ids, Array(0..<count), d.log)
        XCTAssertTrue(closedByDaemon(c))
    }

    func testAClientThatSendsRequestsAndNeverReadsIsDisconnectedWithTheErrorWhole() throws {
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu")])
        let deaf = try SocketClient(path: d.socketPath)
        let count = 6000  // a `status` answer is some 300 bytes: far more than the socket and the queue hold
        let fd = deaf.fd
        let done = DispatchSemaphore(value: 0)
        let writer = Thread {
            let all = Array((0..<count).map { #"{"request":"status","id":\#($0)}"# + "\n" }.joined().utf8)
            var sent = 0
            while sent < all.count {
                let n = all[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
            done.signal()
        }
        writer.start()
        // The daemon reads every request (the writer is never blocked for good) though it answers few.
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        let other = try SocketClient(path: d.socketPath)
        _ = other.readLine()
        other.send(#"{"request":"ping","id":"other"}"# + "\n")
        XCTAssertTrue(other.readLine()?.contains(#""id":"other""#) ?? false, "nobody else notices: \(d.log)")

        var got = ClientStream()
        got.take(deaf.readText(timeout: 10))
        got.finish()
        XCTAssertEqual(got.problems, [], "whole lines, and nothing after the error")
        let ids = got.lines.filter { $0["type"] as? String == "reply" }.compactMap { $0["id"] as? Int }
        XCTAssertEqual(ids, Array(0..<ids.count), "answers in order, none torn")
        XCTAssertLessThan(ids.count, count)
        let last = try XCTUnwrap(got.lines.last)
        XCTAssertEqual(last["error"] as? String, "too-slow", "\(last)")
        XCTAssertEqual(last["fatal"] as? Bool, true)
        XCTAssertTrue(d.log.contains("disconnected: too slow"), d.log)
    }

    func testAStuckClientDoesNotFreezeAFullSpeedReplayAndExitWhenDoneExits() throws {
        let generated = try GeneratedCapture(seconds: 4, seed: 3)
        let capture = generated.path
        let expected = try Executables.run("pressurectl", ["replay", capture]).stdout.split(separator: "\n").map(String.init)

        let d = try DaemonProcess(["--replay", capture, "--speed", "0", "--exit-when-done"])
        let stuck = try SocketClient(path: d.socketPath)
        var size: Int32 = 4096
        setsockopt(stuck.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = stuck.readLine()
        let good = try SocketClient(path: d.socketPath)
        _ = good.readLine()
        // The stuck client subscribes to everything, which starts the replay, and never reads again; the
        // good one subscribes at once after it. (Before, the replay waited for the stuck one for ever.)
        stuck.send(#"{"request":"subscribe","events":["gestures","touches"]}"# + "\n")
        good.send(#"{"request":"subscribe","events":["gestures","devices"]}"# + "\n")
        var gestures: [String] = []
        var last = ""
        while let line = good.readLine(timeout: 20) {
            if line.contains(#""contact":"#) { gestures.append(line) }
            last = line
        }
        XCTAssertEqual(last, #"{"type":"bye","reason":"shutdown"}"#, "the replay went on to its end: \(d.log)")
        XCTAssertGreaterThan(gestures.count, expected.count / 2)
        XCTAssertEqual(gestures, Array(expected.suffix(gestures.count)), "every gesture from its subscription on")
        XCTAssertEqual(d.wait(seconds: 20), 0, d.log)
        XCTAssertTrue(d.log.contains("replay finished"), d.log)
    }

    /// At full speed the replay is paced by its readers: one that keeps up loses no touch, however much a
    /// busy capture queues for it at once. (Before, one wake-up's batch could queue past the touch limit
    /// while the socket still held the last one; how often depended on the reader's pace.)
    func testAFullSpeedReplayGivesAReaderThatKeepsUpEveryTouch() throws {
        let generated = try GeneratedCapture(seconds: 3, seed: 1)
        let expected = try Executables.run("pressurectl", ["replay", "--touches", generated.path]).stdout
        let d = try DaemonProcess(["--replay", generated.path, "--speed", "0", "--exit-when-done"])
        let c = try SocketClient(path: d.socketPath)
        _ = c.readLine()
        c.send(#"{"request":"subscribe","events":["gestures","touches"]}"# + "\n")
        let lines = c.readAll(timeout: 20)
        XCTAssertEqual(d.wait(seconds: 20), 0, d.log)
        XCTAssertFalse(lines.contains { $0.hasPrefix(#"{"type":"dropped""#) })
        let events = lines.filter { $0.contains(#""contact":"#) || $0.hasPrefix(#"{"type":"device","change":"changed""#) }
        XCTAssertEqual(events.count, expected.split(separator: "\n").count)
        XCTAssertTrue(events.joined(separator: "\n") + "\n" == expected, "exactly what pressurectl replay prints")
    }
}
