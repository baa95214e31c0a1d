import Foundation
import Glibc
import PressureClient
import TestSupport
import XCTest

/// A daemon killed mid-peek (`docs/protocol.md`, "When the connection ends"): the connection ends the
/// peek and the contact itself, fails the request the daemon never answered, and says it was lost.
final class ConnectionLostTests: XCTestCase {
    func testADaemonKilledMidPeekEndsThePeekTheContactAndTheWaitingRequest() async throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(holdingAPeekIn: folder)
        let c = try await PressuredConnection.connect(path: daemon.socketPath)
        let watchdog = Watchdog(seconds: 20) { c.close() }
        defer { watchdog.cancel() }
        try await c.subscribe(events: [.gestures, .touches])
        var iterator = c.events.makeAsyncIterator()
        let received = try await iterator.untilPeek()
        // Stopped, the daemon reads the ping and never answers it: a request waiting when it dies.
        daemon.signal(SIGSTOP)
        let ping = Task { try await c.ping() }
        try await Task.sleep(for: .milliseconds(100))
        daemon.signal(SIGKILL)
        daemon.wait()

        var after: [ClientEvent] = []
        var thrown: PressuredClientError? = nil
        do {
            while let e = try await iterator.next() { after.append(e) }
        } catch {
            thrown = error
        }
        let synthesized = after.filter(\.isSynthesized)
        XCTAssertEqual(synthesized.count, 2, "\(after)")
        XCTAssertEqual(after.suffix(2), ArraySlice(synthesized), "the ends come last")
        XCTAssertEqual(synthesized, expectedEnds(after: received + after.dropLast(2)))
        // Only the rest of the peek's frame came from the daemon.
        XCTAssertTrue(after.dropLast(2).allSatisfy { if case .touch(let t, false) = $0 { t.phase == .moved } else { false } })
        guard case .connectionLost = thrown else { return XCTFail("the events ended with \(String(describing: thrown))") }
        do {
            try await ping.value
            XCTFail("the ping was answered")
        } catch {
            guard case .connectionLost = error as? PressuredClientError else { return XCTFail("\(error)") }
        }
        do {
            try await c.ping()
            XCTFail("a request after the end was answered")
        } catch {
            guard case .connectionLost = error else { return XCTFail("\(error)") }
        }
    }

    /// ``PressuredClient`` passes the ends on, then says how the connection ended before reconnecting.
    func testTheReconnectingClientSaysTheConnectionWasLost() async throws {
        let folder = try TemporaryFolder()
        let daemon = try DaemonProcess(holdingAPeekIn: folder)
        let client = PressuredClient(
            options: .init(path: daemon.socketPath, events: [.gestures], initialBackoff: .milliseconds(20)))
        let watchdog = Watchdog(seconds: 20) { client.close() }
        defer { watchdog.cancel() }
        try await client.start()
        var iterator = client.events.makeAsyncIterator()
        let received = try await iterator.untilPeek()
        daemon.signal(SIGKILL)
        daemon.wait()
        var after: [ClientEvent] = []
        while let e = try await iterator.next() {
            after.append(e)
            if case .disconnected = e { break }
        }
        client.close()
        XCTAssertEqual(after.dropLast(), ArraySlice(expectedEnds(after: received)), "gestures only: the peek's dismiss")
        guard case .disconnected(.connectionLost) = after.last else { return XCTFail("\(after)") }
    }
}
