import Foundation
import Glibc
import PressureClient
import TestSupport
import XCTest

/// ``PressuredConnection`` against a real `pressured` serving a replay: hello, events, requests, errors.
final class PressuredConnectionTests: XCTestCase {
    func testConnectGivesATypedHello() async throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder)
        let c = try await PressuredConnection.connect(path: daemon.socketPath)
        defer { c.close() }
        XCTAssertEqual(c.hello.protocolVersion, 1)
        XCTAssertEqual(c.hello.version, pressuredVersion)
        XCTAssertEqual(c.hello.settings, PublicSettings(forceTouch: true, sensitivity: .medium))
        let device = try XCTUnwrap(c.hello.devices.first)
        XCTAssertEqual(c.hello.devices.count, 1)
        XCTAssertEqual(device.id, 1)
        XCTAssertEqual(device.node, "replay:Tests/Fixtures/peek-pop.evemu")
        XCTAssertEqual(device.kind, .touchscreen)
        // Nothing learned yet about the fixture's device: force comes once it has learned its average touch.
        XCTAssertEqual(device.forceCapability, .unavailable)
        XCTAssertEqual(device.forceUnavailable, "learning")
        XCTAssertEqual(device.maximumPossibleForce, 0)
        XCTAssertNotNil(device.widthMillimetres)
        XCTAssertEqual(device.xAxis, AxisRange(minimum: 0, maximum: 4095))
    }

    /// The gestures a subscriber receives are exactly what `pressurectl replay` prints, decoded.
    func testSubscribedGesturesAreExactlyWhatPressurectlReplayPrints() async throws {
        try await checkReplay(touches: false)
    }

    func testSubscribedTouchesAreExactlyWhatPressurectlReplayPrints() async throws {
        try await checkReplay(touches: true)
    }

    func checkReplay(touches: Bool, file: StaticString = #filePath, line: UInt = #line) async throws {
        let replay = try Executables.run("pressurectl", ["replay"] + (touches ? ["--touches"] : []) + ["Tests/Fixtures/peek-pop.evemu"])
        XCTAssertEqual(replay.status, 0, replay.stderr, file: file, line: line)
        let expected = try replay.stdout.split(separator: "\n").map { ClientEvent(try JSONParser.parse(String($0))) }
        XCTAssertEqual(expected.filter { if case .gesture = $0 { true } else { false } }.count, 4, file: file, line: line)

        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder, extra: ["--speed", "0", "--exit-when-done"])
        let c = try await PressuredConnection.connect(path: daemon.socketPath)
        let watchdog = Watchdog(seconds: 20, file: file, line: line) { c.close() }
        defer { watchdog.cancel() }
        let subscription = try await c.subscribe(events: touches ? [.gestures, .touches] : [.gestures])
        XCTAssertEqual(subscription, Subscription(gestures: true, touches: touches), file: file, line: line)
        let events = try await c.events.collect()
        // Gestures, touches, and the `device changed` that tells the device has learned its average touch.
        let received = events.filter {
            switch $0 {
            case .gesture, .touch, .device(.changed, _): return true
            default: return false
            }
        }
        XCTAssertEqual(received, expected, file: file, line: line)
        XCTAssertEqual(events.last, .bye(reason: "shutdown"), file: file, line: line)
        XCTAssertFalse(events.contains { if case .unknown = $0 { true } else { false } }, "\(events)", file: file, line: line)
        XCTAssertEqual(daemon.wait(), 0, daemon.log, file: file, line: line)
    }

    func testPingAndDevices() async throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "no-pressure.evemu", in: folder)
        let c = try await PressuredConnection.connect(path: daemon.socketPath)
        let watchdog = Watchdog(seconds: 10) { c.close() }
        defer { watchdog.cancel() }
        let t1 = try await c.ping()
        let t2 = try await c.ping()
        XCTAssertGreaterThan(t1.microseconds, 0)
        XCTAssertGreaterThanOrEqual(t2, t1, "the daemon's clock is monotonic")
        let devices = try await c.devices()
        XCTAssertEqual(devices, c.hello.devices)
        XCTAssertEqual(devices.first?.forceCapability, .unavailable)
        XCTAssertEqual(devices.first?.maximumPossibleForce, 0)
        // Concurrent requests each get their own answer.
        async let a = c.ping()
        async let b = c.devices()
        async let d = c.ping()
        _ = try await (a, b, d)
    }

    /// `set` (allowed: the test runs as root or as the daemon's user) answers with the new settings, and
    /// every client hears `device` `changed` and `settings`.
    func testSetChangesSettingsAndEveryoneHearsIt() async throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder, calibrated: true)
        let watcher = try await PressuredConnection.connect(path: daemon.socketPath)
        let admin = try await PressuredConnection.connect(path: daemon.socketPath)
        let watchdog = Watchdog(seconds: 10) {
            watcher.close()
            admin.close()
        }
        defer { watchdog.cancel() }
        let settings = try await admin.set(forceTouch: false, sensitivity: .firm)
        XCTAssertEqual(settings, PublicSettings(forceTouch: false, sensitivity: .firm))
        // The watcher never subscribed and still learns that force became unavailable.
        var changedDevice: DeviceInfo?
        var newSettings: PublicSettings?
        for try await event in watcher.events {
            switch event {
            case .device(.changed, let d): changedDevice = d
            case .settings(let s): newSettings = s
            default: XCTFail("unexpected \(event)")
            }
            if changedDevice != nil && newSettings != nil { break }
        }
        XCTAssertEqual(changedDevice?.forceCapability, .unavailable)
        XCTAssertEqual(changedDevice?.maximumPossibleForce, 0)
        XCTAssertEqual(newSettings, settings)
        let devices = try await admin.devices()
        XCTAssertEqual(devices.first?.forceCapability, .unavailable)
        let back = try await admin.set(forceTouch: true)
        XCTAssertEqual(back, PublicSettings(forceTouch: true, sensitivity: .firm))
        let quiet = try await admin.set(haptics: false)
        XCTAssertEqual(quiet, PublicSettings(forceTouch: true, sensitivity: .firm, haptics: false))
    }

    func testDaemonErrorsBecomeTypedErrorsAndTheConnectionCarriesOn() async throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder)
        let c = try await PressuredConnection.connect(path: daemon.socketPath)
        let watchdog = Watchdog(seconds: 10) { c.close() }
        defer { watchdog.cancel() }
        do {
            try await c.subscribe(events: [.gestures], devices: [0])
            XCTFail("device 0 accepted")
        } catch {
            guard case .daemon(let code, let message, let fatal) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(code, "invalid-argument")
            XCTAssertFalse(fatal)
            XCTAssertTrue(message.contains("devices"), message)
            XCTAssertEqual(error.protocolCode, .invalidArgument)
        }
        do {
            _ = try await c.request("dance", [("tempo", 120)])
            XCTFail("an unknown request accepted")
        } catch {
            XCTAssertEqual(error.protocolCode, .unknownRequest, "\(error)")
        }
        try await c.ping()
    }

    /// A fatal daemon error (a line over 64 KiB) fails the waiting request and ends the events with it.
    /// 70 000 bytes arrive whole and are refused as a line (the error carries the request's id); 100 000
    /// overflow the daemon's buffer before their newline (no id): the client ends either way.
    func testAFatalErrorEndsTheConnection() async throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder)
        for size in [70_000, 100_000] {
            let c = try await PressuredConnection.connect(path: daemon.socketPath)
            let watchdog = Watchdog(seconds: 10) { c.close() }
            defer { watchdog.cancel() }
            let expected = PressuredClientError.daemon(
                code: "line-too-long", message: "request line longer than 65536 bytes", fatal: true)
            do {
                _ = try await c.request("ping", [("padding", .string(String(repeating: "x", count: size)))])
                XCTFail("a \(size)-byte line accepted")
            } catch {
                XCTAssertEqual(error, expected, "\(size)")
            }
            do {
                _ = try await c.events.collect()
                XCTFail("events did not fail")
            } catch {
                XCTAssertEqual(error, expected, "\(size)")
            }
            do {
                try await c.ping()
                XCTFail("a request on an ended connection")
            } catch {
                XCTAssertEqual(error, expected, "\(size)")
            }
        }
    }

    func testConnectingWhereNobodyListensIsATypedError() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("nobody.sock").path
        do {
            _ = try await PressuredConnection.connect(path: path)
            XCTFail("connected to nothing")
        } catch {
            XCTAssertEqual(error, .cannotConnect(path: path, errno: ENOENT))
            XCTAssertTrue(error.description.contains("No such file"), error.description)
        }
        do {
            _ = try await PressuredConnection.connect(path: "/tmp/" + String(repeating: "p", count: 200))
            XCTFail("an overlong path accepted")
        } catch {
            guard case .pathTooLong = error else { return XCTFail("\(error)") }
        }
    }

    /// A daemon serving as many clients as `MaxClients` allows turns the next one away: the connection
    /// fails with the daemon's `too-many-clients`, not as a peer that broke the protocol.
    func testADaemonThatTurnsTheConnectionAwaySaysWhy() async throws {
        let folder = try TemporaryFolder()
        let conf = folder.url.appendingPathComponent("one.conf")
        try "[pressured]\nMaxClients = 1\n".write(to: conf, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder, extra: ["--config", conf.path])
        // DaemonProcess's probe holds the one place until the daemon has seen it go: until then, even the
        // first is turned away.
        var connected: PressuredConnection? = nil
        for _ in 0..<500 where connected == nil {
            do {
                connected = try await PressuredConnection.connect(path: daemon.socketPath)
            } catch {
                guard error.protocolCode == .tooManyClients else { throw error }
            }
        }
        let first = try XCTUnwrap(connected)
        defer { first.close() }
        do {
            let second = try await PressuredConnection.connect(path: daemon.socketPath)
            second.close()
            XCTFail("a second client past MaxClients = 1")
        } catch {
            XCTAssertEqual(error.protocolCode, .tooManyClients, "\(error)")
            guard case .daemon(_, let message, let fatal) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(fatal)
            XCTAssertTrue(message.contains("MaxClients = 1"), message)
        }
    }

    /// A peer that never greets is a timeout, not a hang.
    func testAPeerWithoutHelloTimesOut() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("mute.sock").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(listener) }
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        XCTAssertEqual(listen(listener, 4), 0)
        let start = ContinuousClock.now
        do {
            _ = try await PressuredConnection.connect(path: path, helloTimeout: .milliseconds(300))
            XCTFail("connected without a hello")
        } catch {
            guard case .timedOut = error else { return XCTFail("\(error)") }
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
    }

    /// Closing ends the events normally and fails later requests with `.closed`.
    func testCloseEndsEventsAndRequests() async throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder)
        let c = try await PressuredConnection.connect(path: daemon.socketPath)
        let watchdog = Watchdog(seconds: 10) { c.close() }
        defer { watchdog.cancel() }
        let events = c.events
        let reader = Task { try await events.collect() }
        c.close()
        let collected = try await reader.value
        XCTAssertEqual(collected, [])
        do {
            try await c.ping()
            XCTFail("a request after close")
        } catch {
            XCTAssertEqual(error, .closed)
        }
    }
}

/// The fields regions and screens added to events, and the `action` event, decode into typed values.
final class ClientEventDecodingTests: XCTestCase {
    func testRoutedQuickActionsAndActions() throws {
        let line = #"{"type":"quickActions","time":1.5,"device":1,"contact":3,"x":10,"y":20,"screenX":96.5,"screenY":40.0,"force":1.4,"maximumPossibleForce":6.7,"region":"icon:mail","app":"org.example.mail","items":[{"id":"compose","title":"New Message","icon":"compose"},{"id":"inbox","title":"Inbox","subtitle":"3 unread"}]}"#
        guard case .gesture(let g, let tags, _) = ClientEvent(try JSONParser.parse(line)) else { return XCTFail("not a gesture") }
        XCTAssertEqual(g.gesture, .quickActions)
        XCTAssertEqual(g.screenX, 96.5)
        XCTAssertEqual(tags?.region, "icon:mail")
        XCTAssertEqual(tags?.app, "org.example.mail")
        XCTAssertEqual(tags?.items, [QuickActionItem(id: "compose", title: "New Message", icon: "compose"),
                                 QuickActionItem(id: "inbox", title: "Inbox", subtitle: "3 unread")])
        let action = ClientEvent(try JSONParser.parse(#"{"type":"action","app":"org.example.mail","action":"compose"}"#))
        guard case .action(let app, let chosen) = action else { return XCTFail("\(action)") }
        XCTAssertEqual([app, chosen], ["org.example.mail", "compose"])
        // A line from an older daemon, without screen coordinates, still decodes.
        let old = #"{"type":"peek","time":1.0,"device":1,"contact":1,"x":1,"y":2,"force":1.4,"maximumPossibleForce":6.7}"#
        guard case .gesture(let o, let oldTags, _) = ClientEvent(try JSONParser.parse(old)) else { return XCTFail("not a gesture") }
        XCTAssertNil(oldTags?.region)
        XCTAssertEqual(o.screenX, 0)
    }
}
