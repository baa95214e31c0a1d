import Foundation
import Glibc
import PressureClient
import TestSupport
import XCTest

/// ``PressuredClient`` keeping a connection up across a daemon restart on the same socket path.
final class PressuredClientTests: XCTestCase {
    /// SIGTERM → `bye` → the socket disappears → a new daemon on the same path → the client reconnects,
    /// says so with a second hello, and its re-sent subscription delivers the new daemon's gestures.
    func testReconnectsAfterTheDaemonRestarts() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sock").path
        let log = folder.url.appendingPathComponent("daemon.log")
        let first = try DaemonProcess(["--replay", "Tests/Fixtures/peek-pop.evemu"], socketPath: path, logURL: log)
        let client = PressuredClient(
            options: .init(
                path: path, events: [.gestures, .devices], initialBackoff: .milliseconds(20),
                maximumBackoff: .milliseconds(200)))
        let watchdog = Watchdog(seconds: 30) { client.close() }
        defer { watchdog.cancel() }
        let hello = try await client.start()
        XCTAssertEqual(hello.devices.map(\.id), [1])
        XCTAssertNotNil(client.connection)
        try await client.ping()

        // The first daemon replays in real time once subscribed; stopping it mid-way must not matter.
        XCTAssertEqual(first.stop(), 0, first.log)
        var iterator = client.events.makeAsyncIterator()
        var beforeRestart: [ClientEvent] = []
        while let e = try await iterator.next() {
            beforeRestart.append(e)
            if case .disconnected = e { break }
        }
        XCTAssertTrue(beforeRestart.contains(.bye(reason: "shutdown")), "\(beforeRestart)")
        guard case .disconnected(let reason) = beforeRestart.last else { return XCTFail("\(beforeRestart)") }
        XCTAssertTrue(reason.description.contains("bye"), reason.description)

        // The client is retrying now: a stand-in on the path sees it try, and hangs up. The replacement
        // appears on the same path after that.
        let standIn = try SocketStandIn(path: path)
        XCTAssertTrue(standIn.hangUpOnNext(), "the client did not try to reconnect")
        standIn.close()
        do {
            try await client.ping()
            XCTFail("a request between connections")
        } catch {
            XCTAssertEqual(error, .notConnected)
        }
        let second = try DaemonProcess(
            ["--replay", "Tests/Fixtures/quick-actions-hold.evemu", "--speed", "0", "--exit-when-done"],
            socketPath: path, logURL: log)
        var afterRestart: [ClientEvent] = []
        while let e = try await iterator.next() {
            afterRestart.append(e)
            if case .bye = e { break }
        }
        guard case .reconnected(let newHello) = afterRestart.first else { return XCTFail("\(afterRestart)") }
        XCTAssertEqual(newHello.devices.first?.node, "replay:Tests/Fixtures/quick-actions-hold.evemu")
        // The re-sent subscription is what started the second replay: its gestures arrived.
        let gestures = afterRestart.compactMap { if case .gesture(let g, _, _) = $0 { g.gesture } else { nil } }
        XCTAssertTrue(gestures.contains(.quickActions), "\(afterRestart)")
        XCTAssertTrue(
            afterRestart.contains { if case .device(.removed, _) = $0 { true } else { false } },
            "devices events are subscribed again too")
        XCTAssertEqual(second.wait(), 0, second.log)

        client.close()
        var tail: [ClientEvent] = []
        while let e = try await iterator.next() { tail.append(e) }
        XCTAssertTrue(tail.allSatisfy { if case .gesture = $0 { false } else { true } }, "\(tail)")
    }

    func testGivesUpAfterTheConfiguredAttempts() async throws {
        let folder = try TemporaryFolder()
        let client = PressuredClient(
            options: .init(
                path: folder.url.appendingPathComponent("none.sock").path, initialBackoff: .milliseconds(10),
                maximumAttempts: 3))
        let watchdog = Watchdog(seconds: 10) { client.close() }
        defer { watchdog.cancel() }
        do {
            try await client.start()
            XCTFail("connected to nothing")
        } catch {
            guard case .gaveUp(let attempts, let last) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(attempts, 3)
            XCTAssertTrue(last.contains("No such file"), last)
        }
        do {
            _ = try await client.events.collect()
            XCTFail("events did not fail")
        } catch {
            guard case .gaveUp = error else { return XCTFail("\(error)") }
        }
    }

    /// An app starting before the daemon: `start()` keeps trying until it appears.
    func testStartWaitsForALateDaemon() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("s.sock").path
        let client = PressuredClient(options: .init(path: path, initialBackoff: .milliseconds(20), maximumBackoff: .milliseconds(100)))
        let watchdog = Watchdog(seconds: 20) { client.close() }
        defer { watchdog.cancel() }
        let starting = Task { try await client.start() }
        // Not there yet: a stand-in on the path sees the client try (and fail) before the daemon comes.
        let standIn = try SocketStandIn(path: path)
        XCTAssertTrue(standIn.hangUpOnNext(), "the client did not try to connect")
        standIn.close()
        let daemon = try DaemonProcess(
            ["--replay", "Tests/Fixtures/peek-pop.evemu"], socketPath: path,
            logURL: folder.url.appendingPathComponent("daemon.log"))
        let hello = try await starting.value
        XCTAssertEqual(hello.devices.count, 1)
        let devices = try await client.devices()
        XCTAssertEqual(devices, hello.devices)
        client.close()
        let rest = try await client.events.collect()
        XCTAssertFalse(rest.contains { if case .reconnected = $0 { true } else { false } }, "\(rest)")
        daemon.stop()
    }

    /// A subscription the daemon refuses is the app's mistake: no retry loop, the typed error at once.
    func testARefusedSubscriptionIsNotRetried() async throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(replay: "peek-pop.evemu", in: folder)
        let client = PressuredClient(options: .init(path: daemon.socketPath, devices: [0]))
        let watchdog = Watchdog(seconds: 10) { client.close() }
        defer { watchdog.cancel() }
        do {
            try await client.start()
            XCTFail("device 0 accepted")
        } catch {
            XCTAssertEqual(error.protocolCode, .invalidArgument, "\(error)")
        }
    }
}
