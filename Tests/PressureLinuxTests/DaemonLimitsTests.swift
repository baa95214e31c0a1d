import Foundation
import Glibc
import TestSupport
import XCTest

/// Limits that hold, over real sockets: the daemon at its descriptor limit (RLIMIT_NOFILE set low for it)
/// turns newcomers away without spinning and takes new ones once clients leave; `MaxClients` refuses the
/// next client with an error while the others go on; a client reconnecting in a loop cannot flood the log.
final class DaemonLimitsTests: XCTestCase {
    let fixture = "Tests/Fixtures/peek-pop.evemu"

    /// What `status` says on `c`: the counts held and the activity since start.
    func status(_ c: SocketClient, file: StaticString = #filePath, line: UInt = #line) throws
        -> (held: [String: Int], activity: [String: Int])
    {
        c.send(#"{"request":"status","id":"st"}"# + "\n")
        while let o = c.readObject() {
            guard o["id"] as? String == "st" else { continue }  // events before the answer
            let held = try XCTUnwrap(o["status"] as? [String: Int], "\(o)", file: file, line: line)
            let activity = try XCTUnwrap(o["activity"] as? [String: Int], "\(o)", file: file, line: line)
            return (held, activity)
        }
        throw NoStatusAnswer()
    }

    /// The connection ended, or went quiet, before `status` was answered: a failure of the test that asked.
    struct NoStatusAnswer: Error, CustomStringConvertible {
        var description: String { "no answer to status" }
    }

    /// The first line a new connection gets: `hello`, or the refusal (then the daemon closes it).
    enum Greeting: Equatable {
        case hello, refused(String), other(String)
    }

    func greeting(_ c: SocketClient) -> Greeting {
        guard let o = c.readObject() else { return .other("nothing") }
        switch o["type"] as? String {
        case "hello": return .hello
        case "error" where o["fatal"] as? Bool == true: return .refused(o["error"] as? String ?? "?")
        default: return .other("\(o)")
        }
    }

    func pingRoundTrips(_ c: SocketClient, _ n: Int) {
        for i in 0..<n {
            c.send(#"{"request":"ping","id":\#(i)}"# + "\n")
            while let o = c.readObject(), o["id"] as? Int != i {}
        }
    }

    /// 40 clients at a daemon with 24 descriptors: those it has room for are served, the others told
    /// `too-many-clients` at once and closed (with the reserve descriptor), one log line says so, and the
    /// loop does not spin (its wake-ups, as `status` counts them, follow the requests and nothing else).
    /// Once some clients leave, newcomers are served again.
    func testAtTheDescriptorLimitNewcomersAreTurnedAwayAndTheLoopDoesNotSpin() throws {
        let d = try DaemonProcess(["--replay", fixture, "--speed", "0"], calibrated: true, descriptorLimit: 24)
        let clients = try (0..<40).map { _ in try SocketClient(path: d.socketPath) }
        var served: [SocketClient] = []
        var refused = 0
        for c in clients {
            switch greeting(c) {
            case .hello: served.append(c)
            case .refused(let code):
                XCTAssertEqual(code, "too-many-clients")
                XCTAssertNil(c.readLine(timeout: 5), "a client turned away is closed")
                refused += 1
            case .other(let what): XCTFail("neither hello nor a refusal: \(what)\n\(d.log)")
            }
        }
        XCTAssertGreaterThan(served.count, 0, d.log)
        XCTAssertGreaterThan(refused, 0, "24 descriptors cannot hold 40 clients\n\(d.log)")
        XCTAssertEqual(served.count + refused, 40)
        let first = served[0]
        let (held, activity) = try status(first)
        XCTAssertEqual(held["clients"], served.count)
        XCTAssertEqual(activity["accepted"], 41, "the 40 and DaemonProcess's probe")
        XCTAssertEqual(activity["refused"], refused)
        // One EMFILE a refused client, and at most one a batch (Linux's accept4 says EMFILE before it
        // looks whether anyone waits): never a retry loop.
        let errors = activity["acceptErrors"] ?? 0
        XCTAssertTrue((refused...(2 * refused)).contains(errors), "\(errors) accept errors for \(refused) refused")
        // Nothing waits at the listener any more: the loop wakes for requests only.
        let before = try status(first).activity["wakeups"] ?? 0
        pingRoundTrips(first, 3)
        let after = try status(first).activity["wakeups"] ?? 0
        XCTAssertLessThanOrEqual(after - before, 8, "the loop turned \(after - before) times for 4 requests")
        let warnings = d.log.split(separator: "\n").filter { $0.contains("no file descriptor left for a new client") }
        XCTAssertEqual(warnings.count, 1, d.log)
        XCTAssertTrue(d.log.contains("RLIMIT_NOFILE is 24, fewer than MaxClients = 256 needs"), d.log)
        // The clients it has are served: a subscriber gets the replay's gestures.
        first.send(#"{"request":"subscribe","id":"g","events":["gestures"]}"# + "\n")
        var types: [String] = []
        while let o = first.readObject(), types.count < 10 {
            if let t = o["type"] as? String, t != "reply" { types.append(t) }
            if types.contains("pop") { break }
        }
        XCTAssertEqual(Array(types.prefix(2)), ["peek", "pop"], d.log)
        // Clients leave: descriptors free, and newcomers are served again.
        for c in served.suffix(3) { c.close() }
        XCTAssertTrue(Wait.until { ((try? self.status(first).held["clients"]) ?? nil) == served.count - 3 }, d.log)
        let newcomers = try (0..<3).map { _ in try SocketClient(path: d.socketPath) }
        XCTAssertEqual(newcomers.map(greeting), [.hello, .hello, .hello], d.log)
        XCTAssertEqual(d.stop(), 0, d.log)
    }

    /// Where not even the reserve descriptor could be had, the listener rests instead: a second at a
    /// time, so the daemon's own count of accept failures stays at a few a window, where a spinning loop
    /// would count thousands. (Its limit is the number of the descriptor a first daemon holds in reserve:
    /// room for everything it keeps but the reserve, which it opens last.)
    func testWithoutItsReserveTheListenerRestsAndDoesNotSpin() throws {
        let arguments = ["--replay", fixture, "--log-window", "2"]
        let measure = try DaemonProcess(arguments)
        let pid = measure.process.processIdentifier
        let reserve = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap(Int.init).filter {
                $0 > 2 && (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == "/dev/null"
            }.min(), "no reserve descriptor in /proc/\(pid)/fd")
        XCTAssertEqual(measure.stop(), 0)
        let d = try DaemonProcess(arguments, descriptorLimit: reserve)
        XCTAssertTrue(d.waitForLog("no descriptor could be kept in reserve"), d.log)
        // A descriptor the daemon used only while starting (the capture's) may be free for one client;
        // the others wait in the backlog, unanswered.
        let waiting = try (0..<3).map { _ in try SocketClient(path: d.socketPath) }
        XCTAssertTrue(d.waitForLog("the listener rests 1 s, or until a client leaves"), d.log)
        XCTAssertTrue(d.waitForLog("accepting clients: "), d.log)
        XCTAssertEqual(d.stop(), 0, d.log)
        waiting.forEach { $0.close() }
        // A warning a window, then how many more: each window's count is a few, not a spin's thousands.
        let log = d.log
        let more = log.matches(of: /accepting clients: (\d+) more failures? in the last [\d.]+ s/).compactMap { Int($0.1) }
        XCTAssertFalse(more.isEmpty, log)
        XCTAssertLessThanOrEqual(more.max() ?? 0, 3, log)
        let warnings = log.split(separator: "\n").filter { $0.contains("no file descriptor left") }.count
        XCTAssertLessThanOrEqual(warnings, more.count + 1, log)
        XCTAssertFalse(log.contains("<3>"), "stopping while the listener rests is no error: \(log)")
    }

    /// `MaxClients = 3`: the fourth client gets a fatal `too-many-clients` instead of `hello` and is
    /// closed; the three go on getting events; once one leaves, the next is served.
    func testTheCapRefusesTheNextClientAndTheOthersKeepGettingEvents() throws {
        let conf = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString).conf")
        try "[pressured]\nMaxClients = 3\n".write(to: conf, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: conf) }
        let d = try DaemonProcess(["--replay", fixture, "--config", conf.path], calibrated: true)
        let c1 = try SocketClient(path: d.socketPath)
        XCTAssertEqual(greeting(c1), .hello)
        // DaemonProcess's probe holds a place until the daemon has seen it go.
        XCTAssertTrue(Wait.until { ((try? self.status(c1).held["clients"]) ?? nil) == 1 }, d.log)
        let c2 = try SocketClient(path: d.socketPath), c3 = try SocketClient(path: d.socketPath)
        XCTAssertEqual([greeting(c2), greeting(c3)], [.hello, .hello])
        for c in [c1, c2, c3] { c.send(#"{"request":"subscribe","id":"g","events":["gestures"]}"# + "\n") }
        let c4 = try SocketClient(path: d.socketPath)
        let refusal = try XCTUnwrap(c4.readObject())
        XCTAssertEqual(refusal["type"] as? String, "error")
        XCTAssertEqual(refusal["error"] as? String, "too-many-clients")
        XCTAssertEqual(refusal["fatal"] as? Bool, true)
        XCTAssertTrue((refusal["message"] as? String ?? "").contains("as many as MaxClients = 3 allows"), "\(refusal)")
        XCTAssertNil(c4.readLine(timeout: 5), "closed after the refusal")
        for c in [c1, c2, c3] {
            var types: [String] = []
            while let o = c.readObject(), !types.contains("pop") {
                if let t = o["type"] as? String, t != "reply" { types.append(t) }
            }
            XCTAssertEqual(types.filter { $0 == "peek" || $0 == "pop" }, ["peek", "pop"], d.log)
        }
        let (held, activity) = try status(c1)
        XCTAssertEqual(held["clients"], 3)
        XCTAssertEqual(activity["refused"], 1)
        XCTAssertTrue(d.log.contains("turned a client away (uid \(getuid()) gid \(getgid())"), d.log)
        // `pressurectl status` says what happened and where the cap is set.
        let tool = try Executables.run("pressurectl", ["status", "--socket", d.socketPath])
        XCTAssertEqual(tool.status, 1)
        XCTAssertTrue(tool.stderr.contains("the daemon turned this connection away"), tool.stderr)
        XCTAssertTrue(tool.stderr.contains("MaxClients"), tool.stderr)
        c3.close()
        XCTAssertTrue(Wait.until { ((try? self.status(c1).held["clients"]) ?? nil) == 2 }, d.log)
        let c5 = try SocketClient(path: d.socketPath)
        XCTAssertEqual(greeting(c5), .hello)
        XCTAssertEqual(d.stop(), 0, d.log)
    }

    /// A client that connects and hangs up 200 times makes at most a budget's worth of lines (before,
    /// two a connection: 400).
    func testAReconnectLoopCannotFloodTheLog() throws {
        let d = try DaemonProcess(["--replay", fixture])
        for _ in 0..<200 {
            let c = try SocketClient(path: d.socketPath)
            XCTAssertNotNil(c.readLine())
            c.close()
        }
        let last = try SocketClient(path: d.socketPath)
        _ = last.readLine()
        XCTAssertTrue(Wait.until { ((try? self.status(last).held["clients"]) ?? nil) == 1 }, d.log)
        let lines = d.log.split(separator: "\n")
        let aboutClients = lines.filter { $0.range(of: #"client \d+ (connected|hung up)"#, options: .regularExpression) != nil }
        // One window of the budget, two if the loop happened to straddle a minute.
        XCTAssertLessThanOrEqual(aboutClients.count, 40, d.log)
        XCTAssertGreaterThan(aboutClients.count, 0, d.log)
        XCTAssertLessThan(lines.count, 60, d.log)
        XCTAssertEqual(d.stop(), 0, d.log)
    }

    /// The lines held back are summed up at info once their window is over, from the daemon's timer
    /// (`--log-window`, for tests, makes the window short).
    func testWhatWasHeldBackIsSummedUpAtTheEndOfTheWindow() throws {
        let d = try DaemonProcess(["--replay", fixture, "--log-window", "1"])
        for _ in 0..<60 {
            let c = try SocketClient(path: d.socketPath)
            XCTAssertNotNil(c.readLine())
            c.close()
        }
        XCTAssertTrue(d.waitForLog("clients in the last 1 s: "), d.log)
        let summary = try XCTUnwrap(d.log.split(separator: "\n").first { $0.contains("clients in the last 1 s: ") })
        XCTAssertTrue(summary.hasPrefix("<6>"), String(summary))
        XCTAssertNotNil(summary.range(
            of: #"\d+ connected, \d+ left, 0 turned away \(too-many-clients\); \d+ connected now; \d+ lines? about them at debug only"#,
            options: .regularExpression), String(summary))
        XCTAssertEqual(d.stop(), 0, d.log)
    }
}
