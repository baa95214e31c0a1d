import Foundation
import Glibc
import TestSupport
import XCTest

/// How the daemon stops, over its real Unix socket, repeated because what they check is a race: at
/// `--exit-when-done` every request a client sent before it read the replay's end is answered; on
/// `SIGTERM`, a client that stopped reading still reads a stream that ends at a line boundary.
final class DaemonStopTests: XCTestCase {
    /// Bytes waiting to be read on the client's socket (`FIONREAD`).
    func readable(_ c: SocketClient) -> Int {
        var n: Int32 = 0
        return ioctl(c.fd, UInt(FIONREAD), &n) == 0 ? Int(n) : -1
    }

    /// Reads what is there now, at most `limit` bytes, without waiting.
    func take(_ c: SocketClient, _ limit: Int) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: limit)
        let n = chunk.withUnsafeMutableBytes { recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return n > 0 ? Array(chunk[0..<n]) : []
    }

    /// Every byte each client reads until the daemon closes its connection, all read together (as
    /// clients of their own would), and whether it ended with a reset instead of end of file.
    func drainToEnd(_ clients: [SocketClient]) -> [(bytes: [UInt8], reset: Bool)] {
        var got = [(bytes: [UInt8], reset: Bool)](repeating: ([], false), count: clients.count)
        var open = Set(clients.indices)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while !open.isEmpty {
            let waiting = open.sorted()
            var fds = waiting.map { pollfd(fd: clients[$0].fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), 10_000) > 0 else { break }
            for (k, i) in waiting.enumerated() where fds[k].revents != 0 {
                let n = chunk.withUnsafeMutableBytes { recv(clients[i].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 {
                    got[i].bytes += chunk[0..<n]
                } else if n == 0 || errno != EAGAIN {
                    got[i].reset = n < 0
                    open.remove(i)
                }
            }
        }
        return got
    }

    /// 10 replays of 10 clients each: every client subscribes, and sends a `ping` the moment the reply
    /// arrives, as the replay its subscription started runs at full speed to its end. (Before, 5 to 8 of
    /// 20 such pings went unanswered: the daemon stopped with them unread, and the client read `bye`
    /// then a reset.)
    func testARequestSentAsTheReplayRunsIsAnsweredBeforeExitWhenDoneExits() throws {
        var answered = 0, asked = 0
        var failures: [String] = []
        for run in 0..<10 {
            let d = try DaemonProcess(["--replay", "Tests/Fixtures/peek-pop.evemu", "--speed", "0", "--exit-when-done"])
            let clients = try (0..<10).map { _ in try SocketClient(path: d.socketPath) }
            for c in clients { _ = c.readLine() }  // hello
            for c in clients { c.send(#"{"request":"subscribe","id":1,"events":["gestures","touches"]}"# + "\n") }
            for (i, c) in clients.enumerated() {
                guard let reply = c.readLine(timeout: 10), reply.contains(#""id":1"#) else {
                    failures.append("run \(run) client \(i): no subscribe reply")
                    continue
                }
                c.send(#"{"request":"ping","id":2}"# + "\n")
                asked += 1
            }
            for (i, (bytes, reset)) in drainToEnd(clients).enumerated() {
                let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
                if lines.contains(where: { $0.contains(#""type":"reply""#) && $0.contains(#""id":2"#) }) {
                    answered += 1
                } else {
                    failures.append("run \(run) client \(i): no answer to the ping\(reset ? ", and a reset" : "")")
                }
                XCTAssertEqual(lines.last.map(String.init), #"{"type":"bye","reason":"shutdown"}"#, "run \(run)")
            }
            XCTAssertEqual(d.wait(seconds: 20), 0, d.log)
        }
        XCTAssertEqual(failures, [])
        XCTAssertEqual(answered, 100)
        XCTAssertEqual(asked, 100)
    }

    /// 100 clients that read a while, then stopped with part of their socket read (room in it, but not
    /// enough for the daemon to hear it is writable), when the daemon is told to stop: each is given a
    /// second, all together, and each stream ends with a whole line -- `bye` where it fitted. (Before, the
    /// last words' blocking write took part of a line into the room and then timed out: every stream
    /// ended torn, `..."screenX":25`.)
    func testAClientThatStoppedReadingReadsWholeLinesAfterSIGTERM() throws {
        let generated = try GeneratedCapture(seconds: 12, seed: 5)
        let d = try DaemonProcess(["--replay", generated.path, "--speed", "1"])
        let clients = try (0..<100).map { _ in try SocketClient(path: d.socketPath) }
        for c in clients { c.send(#"{"request":"subscribe","events":["gestures","touches"]}"# + "\n") }
        var read = [[UInt8]](repeating: [], count: clients.count)
        // Read slowly, as a busy app does: the daemon's queues grow past what a socket holds.
        for _ in 0..<10 {
            usleep(100_000)
            for (i, c) in clients.enumerated() { read[i] += take(c, 2048) }
        }
        // Until each socket is full (what waits to be read stops growing), then some room in each.
        var before = clients.map(readable)
        for _ in 0..<100 {
            usleep(50_000)
            let now = clients.map(readable)
            if now == before { break }
            before = now
        }
        for (i, c) in clients.enumerated() { read[i] += take(c, 20_000) }
        usleep(200_000)
        d.signal(SIGTERM)
        sleep(2)  // reading nothing while the daemon's second passes
        var torn: [Int] = []
        var byes = 0
        for (i, (rest, _)) in drainToEnd(clients).enumerated() {
            let stream = read[i] + rest
            if stream.last != 0x0A { torn.append(i) }
            var got = ClientStream()
            got.take(String(decoding: stream, as: UTF8.self))
            got.finish()
            XCTAssertEqual(got.problems, [], "client \(i)")
            if got.types.last == "bye" { byes += 1 }
        }
        XCTAssertEqual(torn, [], "every stream ends at a line boundary")
        XCTAssertEqual(d.wait(seconds: 20), 0, d.log)
        print("DaemonStopTests: \(byes) of \(clients.count) streams end with bye; the others at a line boundary")
    }
}
