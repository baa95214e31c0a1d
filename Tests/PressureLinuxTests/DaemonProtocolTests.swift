import Foundation
import Glibc
import TestSupport
import XCTest

/// The daemon over real Unix sockets with the replay source: every request, every error, the end-to-end
/// stream against `pressurectl replay`, and what bad or slow clients cannot break.
final class DaemonProtocolTests: XCTestCase {
    func fixture(_ name: String) -> String { "Tests/Fixtures/\(name)" }

    /// A replay daemon reading a configuration file of its own (returned, for the test to rewrite and remove),
    /// and a client past its hello.
    func daemonWithConfiguration(_ text: String) throws -> (DaemonProcess, SocketClient, URL) {
        let conf = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-\(UUID().uuidString).conf")
        try text.write(to: conf, atomically: true, encoding: .utf8)
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu"), "--config", conf.path], calibrated: true)
        let c = try SocketClient(path: d.socketPath)
        _ = c.readLine()
        return (d, c, conf)
    }

    func testHelloDescribesDevicesAndSettings() throws {
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu")])
        let c = try SocketClient(path: d.socketPath)
        let hello = try XCTUnwrap(c.readObject())
        XCTAssertEqual(hello["type"] as? String, "hello")
        XCTAssertEqual(hello["protocol"] as? Int, 1)
        let devices = try XCTUnwrap(hello["devices"] as? [[String: Any]])
        XCTAssertEqual(devices.count, 1)
        XCTAssertEqual(devices[0]["id"] as? Int, 1)
        XCTAssertEqual(devices[0]["kind"] as? String, "touchscreen")
        // A device nobody calibrated learns its average touch first: force is unavailable until it has.
        XCTAssertEqual(devices[0]["forceCapability"] as? String, "unavailable")
        XCTAssertEqual(devices[0]["forceUnavailable"] as? String, "learning")
        XCTAssertEqual(devices[0]["node"] as? String, "replay:\(fixture("peek-pop.evemu"))")
        XCTAssertNotNil(devices[0]["width"] as? Double)
        let settings = try XCTUnwrap(hello["settings"] as? [String: Any])
        XCTAssertEqual(settings["forceTouch"] as? Bool, true)
        XCTAssertEqual(settings["sensitivity"] as? String, "medium")
    }

    /// The session's examples in `docs/protocol.md` are what a daemon serving that fixture says, to the byte:
    /// its `hello`, and the reply to the `subscribe` example (ProtocolDocExamplesTests checks every example
    /// against the encoder; this, against the daemon).
    func testTheDocsSessionExamplesAreWhatTheDaemonSays() throws {
        let doc = try String(contentsOf: Executables.repoRoot.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let lines = doc.split(separator: "\n").map(String.init)
        let hello = try XCTUnwrap(lines.first { $0.hasPrefix(#"{"type":"hello""#) })
        let subscribe = try XCTUnwrap(lines.first { $0.hasPrefix(#"{"request":"subscribe","id":1,"#) })
        let reply = try XCTUnwrap(lines.first { $0.hasPrefix(#"{"type":"reply","id":1,"request":"subscribe""#) })
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu")])
        let c = try SocketClient(path: d.socketPath)
        XCTAssertEqual(c.readLine(), hello)
        c.send(subscribe + "\n")
        XCTAssertEqual(c.readLine(), reply)
    }

    /// What the daemon serves is exactly what `pressurectl replay` prints, for every fixture: gestures,
    /// touches, and the `device changed` that says the device has learned its average touch. At full speed
    /// and, for long presses the daemon's timer fires (two due at once among them), at the capture's pace;
    /// in time order, across contacts too.
    func testReplayThroughTheDaemonMatchesPressurectl() throws {
        let runs = [
            ("peek-pop.evemu", "0"), ("quick-actions-hold.evemu", "0"), ("dropped-and-oddities.evemu", "0"),
            ("protocol-a.evemu", "0"), ("simultaneous-long-presses.evemu", "0"), ("simultaneous-long-presses.evemu", "1"),
        ]
        for (name, speed) in runs {
            let expected = try Executables.run("pressurectl", ["replay", "--touches", fixture(name)]).stdout
            let times = expected.split(separator: "\n").compactMap { l in
                (try? JSONSerialization.jsonObject(with: Data(l.utf8)) as? [String: Any])?["time"] as? Double
            }
            XCTAssertEqual(times, times.sorted(), "\(name): pressurectl replay goes back in time")
            let d = try DaemonProcess(["--replay", fixture(name), "--speed", speed, "--exit-when-done"])
            let c = try SocketClient(path: d.socketPath)
            _ = c.readLine()
            c.send(#"{"request":"subscribe","id":"s","events":["gestures","touches"]}"# + "\n")
            let lines = c.readAll()
            XCTAssertEqual(d.wait(), 0, d.log)
            let events = lines.filter { $0.contains(#""contact":"#) || $0.hasPrefix(#"{"type":"device","change":"changed""#) }
            XCTAssertEqual(events.joined(separator: "\n") + "\n", expected, "\(name) at speed \(speed)")
            XCTAssertTrue(lines.first?.contains(#""type":"reply","id":"s""#) ?? false, lines.first ?? "")
            XCTAssertEqual(lines.last, #"{"type":"bye","reason":"shutdown"}"#)
        }
    }

    func testPacedReplayKeepsTheCapturesTiming() throws {
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu"), "--speed", "2", "--exit-when-done"])
        let c = try SocketClient(path: d.socketPath)
        _ = c.readLine()
        let start = Date()
        c.send(#"{"request":"subscribe"}"# + "\n")
        let lines = c.readAll()
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertEqual(lines.filter { $0.contains(#""type":"peek""#) }.count, 2)
        // The fixture spans 0.67 s of capture time: at twice the pace, about a third of a second.
        XCTAssertGreaterThan(elapsed, 0.25)
        XCTAssertEqual(d.wait(), 0)
    }

    func testPingDevicesAndIDsEchoed() throws {
        let d = try DaemonProcess(["--replay", fixture("no-pressure.evemu")])
        let c = try SocketClient(path: d.socketPath)
        _ = c.readLine()
        c.send(#"{"request":"ping","id":7}"# + "\n")
        let pong = try XCTUnwrap(c.readObject())
        XCTAssertEqual(pong["type"] as? String, "reply")
        XCTAssertEqual(pong["id"] as? Int, 7)
        XCTAssertNotNil(pong["time"] as? Double)
        c.send(#"{"request":"devices","id":{"mine":[1,2]},"future":"ignored"}"# + "\n")
        let devices = try XCTUnwrap(c.readObject())
        XCTAssertEqual((devices["id"] as? [String: Any])?["mine"] as? [Int], [1, 2])
        let list = try XCTUnwrap(devices["devices"] as? [[String: Any]])
        XCTAssertEqual(list.first?["forceCapability"] as? String, "unavailable")
        XCTAssertEqual(list.first?["maximumPossibleForce"] as? Double, 0)
    }

    func testBadInputGetsErrorsAndTheDaemonCarriesOn() throws {
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu")])
        let bystander = try SocketClient(path: d.socketPath)
        _ = bystander.readLine()
        let c = try SocketClient(path: d.socketPath)
        _ = c.readLine()
        func expectError(_ line: [UInt8], _ code: String, file: StaticString = #filePath, line l: UInt = #line) {
            c.sendRaw(line + [0x0a])
            let e = c.readObject()
            XCTAssertEqual(e?["type"] as? String, "error", file: file, line: l)
            XCTAssertEqual(e?["error"] as? String, code, "\(e ?? [:])", file: file, line: l)
        }
        expectError(Array("{not json".utf8), "invalid-json")
        expectError([0xff, 0x00, 0xfe, 0x80, 0x7b], "invalid-json")
        expectError(Array(#"{"request":"dance","id":3}"#.utf8), "unknown-request")
        expectError(Array(#"{"request":"subscribe","events":["smells"]}"#.utf8), "invalid-argument")
        expectError(Array(#"{"request":"subscribe","devices":["one"]}"#.utf8), "invalid-argument")
        c.send(#"{"request":"ping","id":1}"# + "\n")
        XCTAssertEqual(c.readObject()?["id"] as? Int, 1, "still served after errors")
        // Over 64 KiB without a newline: a fatal error, then the connection closes.
        c.sendRaw(Array(repeating: UInt8(ascii: "x"), count: 70_000))
        let fatal = c.readObject()
        XCTAssertEqual(fatal?["error"] as? String, "line-too-long")
        XCTAssertEqual(fatal?["fatal"] as? Bool, true)
        XCTAssertNil(c.readLine(timeout: 2))
        bystander.send(#"{"request":"ping","id":2}"# + "\n")
        XCTAssertEqual(bystander.readObject()?["id"] as? Int, 2, "another client is unaffected")
    }

    func testAClientWithTooManyErrorsIsDisconnected() throws {
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu")])
        let c = try SocketClient(path: d.socketPath)
        _ = c.readLine()
        c.send(String(repeating: "nope\n", count: 100))
        let lines = c.readAll(timeout: 5)
        XCTAssertEqual(lines.count, 100)
        XCTAssertTrue(lines.last?.contains(#""error":"too-many-errors""#) ?? false, lines.last ?? "")
    }

    func testControlRequestsChangeSettingsForEveryone() throws {
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu")], calibrated: true)
        let watcher = try SocketClient(path: d.socketPath)
        _ = watcher.readLine()
        let admin = try SocketClient(path: d.socketPath)
        _ = admin.readLine()
        admin.send(#"{"request":"set","id":"x","forceTouch":false}"# + "\n")
        let reply = try XCTUnwrap(admin.readObject())
        XCTAssertEqual(reply["type"] as? String, "reply", "\(reply)")
        XCTAssertEqual((reply["settings"] as? [String: Any])?["forceTouch"] as? Bool, false)
        // The watcher never subscribed, and still learns force became unavailable.
        var seen: [String] = []
        while let o = watcher.readObject(timeout: 2) { seen.append(o["type"] as? String ?? "?") ; if seen.count == 2 { break } }
        XCTAssertEqual(Set(seen), ["device", "settings"])
        admin.send(#"{"request":"set","sensitivity":"firm","forceTouch":true}"# + "\n")
        XCTAssertEqual(admin.readObject()?["type"] as? String, "device")
    }

    /// The socket's group lets a peer connect, not control: a member of it that is not in the configured
    /// control group gets `not-permitted` (DaemonAccessTests has the control group itself).
    func testTheSocketsGroupConnectsButDoesNotControl() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        else {
            throw XCTSkip("needs root, setpriv and /usr/bin/python3 to act as another user")
        }
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu"), "--group", "nogroup"])
        chmod(d.dir.path, 0o755)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); f = s.makefile("rwb")
            f.readline(); f.write(b'{"request":"set","id":1,"forceTouch":false}\\n'); f.flush()
            print(f.readline().decode().strip())
            """
        func asPeer(_ ids: [String]) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            p.arguments = ids + ["--clear-groups", "/usr/bin/python3", "-c", script, d.socketPath]
            let out = Pipe()
            p.standardOutput = out
            try p.run()
            p.waitUntilExit()
            return String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        }
        let nobodyInGroup = try asPeer(["--reuid", "65534", "--regid", "65534"])
        XCTAssertTrue(nobodyInGroup.contains(#""error":"not-permitted""#), nobodyInGroup)
        let stranger = try asPeer(["--reuid", "65534", "--regid", "1"])
        XCTAssertEqual(stranger, "", "outside the socket's group: cannot even connect")
    }

    func testSighupReloadsTheConfigurationAndTellsClients() throws {
        let (d, c, conf) = try daemonWithConfiguration("[pressured]\nSensitivity=medium\n")
        defer { try? FileManager.default.removeItem(at: conf) }
        try "[pressured]\nSensitivity=firm\nForceTouch=off\n".write(to: conf, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        var got: [String: [String: Any]] = [:]
        while got.count < 2, let o = c.readObject() { got[o["type"] as? String ?? "?"] = o }
        XCTAssertEqual((got["settings"]?["settings"] as? [String: Any])?["sensitivity"] as? String, "firm")
        XCTAssertEqual((got["device"]?["device"] as? [String: Any])?["forceCapability"] as? String, "unavailable")
        // A broken file keeps the old configuration and the daemon serving.
        try "[pressured]\nSensitivity=squishy\n".write(to: conf, atomically: true, encoding: .utf8)
        d.signal(SIGHUP)
        c.send(#"{"request":"ping","id":9}"# + "\n")
        XCTAssertEqual(c.readObject()?["id"] as? Int, 9)
        XCTAssertTrue(d.log.contains("reload failed"), d.log)
    }

    func testReloadRequestAnswersAndABrokenFileIsRefused() throws {
        let (d, c, conf) = try daemonWithConfiguration("[pressured]\nSensitivity=medium\n")
        defer {
            try? FileManager.default.removeItem(at: conf)
            withExtendedLifetime(d) {}  // the daemon serves until the test is over
        }
        try "[pressured]\nSensitivity=light\n".write(to: conf, atomically: true, encoding: .utf8)
        c.send(#"{"request":"reload","id":"r1"}"# + "\n")
        let reply = try XCTUnwrap(c.readObject())
        XCTAssertEqual(reply["type"] as? String, "reply", "\(reply)")
        XCTAssertEqual(reply["request"] as? String, "reload")
        XCTAssertEqual((reply["settings"] as? [String: Any])?["sensitivity"] as? String, "light")
        // Sensitivity moves thresholds, not the device's force range: a settings event, no device change.
        XCTAssertEqual(c.readObject()?["type"] as? String, "settings")
        try "[pressured]\nSensitivity=squishy\n".write(to: conf, atomically: true, encoding: .utf8)
        c.send(#"{"request":"reload","id":"r2"}"# + "\n")
        let refused = try XCTUnwrap(c.readObject())
        XCTAssertEqual(refused["error"] as? String, "reload-failed")
        XCTAssertEqual(refused["id"] as? String, "r2")
        XCTAssertTrue((refused["message"] as? String)?.contains(":2:") ?? false, "\(refused)")
        c.send(#"{"request":"ping","id":3}"# + "\n")
        XCTAssertEqual(c.readObject()?["id"] as? Int, 3)
    }

    func testShutdownSaysByeAndALiveSocketIsNotStolen() throws {
        let d = try DaemonProcess(["--replay", fixture("peek-pop.evemu")])
        let second = try Executables.run("pressured", ["--replay", fixture("peek-pop.evemu"), "--socket", d.socketPath])
        XCTAssertEqual(second.status, 1)
        XCTAssertTrue(second.stderr.contains("already serving"), second.stderr)
        let c = try SocketClient(path: d.socketPath)
        _ = c.readLine()
        d.signal(SIGTERM)
        XCTAssertEqual(c.readLine(), #"{"type":"bye","reason":"shutdown"}"#)
        XCTAssertEqual(d.wait(), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: d.socketPath), "socket file removed")
    }

    func testAStaleSocketFileIsReplaced() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-stale-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.sock").path
        // A socket file nobody listens on, as a crashed daemon leaves behind.
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        Glibc.close(s)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        let p = Process()
        p.executableURL = try Executables.url("pressured")
        p.arguments = ["--replay", fixture("peek-pop.evemu"), "--socket", path]
        p.currentDirectoryURL = Executables.repoRoot
        p.standardError = FileHandle.nullDevice
        try p.run()
        defer { p.terminate(); p.waitUntilExit() }
        var client: SocketClient? = nil
        XCTAssertTrue(Wait.until { client = try? SocketClient(path: path); return client != nil }, "never listened")
        XCTAssertEqual(client?.readObject()?["type"] as? String, "hello")
        var st = stat()
        stat(path, &st)
        XCTAssertEqual(st.st_mode & 0o777, 0o660)
    }
}
