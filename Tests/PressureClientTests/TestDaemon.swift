import Foundation
import Glibc
import PressureClient
import TestSupport
import XCTest

struct TestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A folder under the temporary directory, removed with its contents when released. Short names: socket
/// paths must fit 107 bytes.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = URL(fileURLWithPath: "/tmp/pressured-client-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

extension DaemonProcess {
    /// A replay of `Tests/Fixtures/FIXTURE`, its socket and log in `folder` (`calibrated`: see
    /// ``DaemonProcess/fixtureCalibration``).
    convenience init(replay fixture: String, in folder: TemporaryFolder, extra: [String] = [], calibrated: Bool = false)
        throws
    {
        try self.init(
            ["--replay", "Tests/Fixtures/\(fixture)"] + extra, socketPath: folder.url.appendingPathComponent("s.sock").path,
            logURL: folder.url.appendingPathComponent("daemon.log"), calibrated: calibrated)
    }
}

/// Fails the test instead of letting it hang: after `seconds`, runs `onTimeout` (closing the connection
/// under test, which fails whatever waits on it).
final class Watchdog: Sendable {
    private let task: Task<Void, Never>

    init(seconds: Double, file: StaticString = #filePath, line: UInt = #line, onTimeout: @escaping @Sendable () -> Void) {
        task = Task {
            do { try await Task.sleep(for: .seconds(seconds)) } catch { return }
            XCTFail("timed out after \(seconds) s", file: file, line: line)
            onTimeout()
        }
    }

    func cancel() { task.cancel() }
    deinit { task.cancel() }
}

extension ClientEvents {
    /// Events until (and including) the first for which `stop` is true, or the end of the sequence.
    func collect(until stop: (ClientEvent) -> Bool = { _ in false }) async throws(PressuredClientError) -> [ClientEvent] {
        var events: [ClientEvent] = []
        for try await e in self {
            events.append(e)
            if stop(e) { break }
        }
        return events
    }
}

/// A capture, written into `folder`, of the peek-pop fixture up to its first peek (calibrated as
/// ``DaemonProcess/fixtureCalibration`` calibrates the daemon), with the finger then held for ten minutes:
/// a replay of it keeps a peek and its contact open until the daemon goes.
func heldPeekCapture(in folder: TemporaryFolder) throws -> String {
    let conf = folder.url.appendingPathComponent("calibration.conf")
    try DaemonProcess.fixtureCalibration.write(to: conf, atomically: true, encoding: .utf8)
    let fixture = "Tests/Fixtures/peek-pop.evemu"
    let replay = try Executables.run("pressurectl", ["replay", "--touches", "--config", conf.path, fixture])
    guard replay.status == 0 else { throw TestError("pressurectl replay: \(replay.stderr)") }
    let peek = try replay.stdout.split(separator: "\n").lazy.map { try JSONParser.parse(String($0)) }
        .first { $0["type"]?.stringValue == "peek" }
    guard let peekTime = peek?["time"]?.numberValue else { throw TestError("no peek in \(fixture)") }
    let lines = try String(contentsOf: Executables.repoRoot.appendingPathComponent(fixture), encoding: .utf8)
        .split(separator: "\n")
    var kept = lines.filter { line in
        guard line.hasPrefix("E:") else { return true }
        let fields = line.split(separator: " ")
        return fields.count > 1 && (Double(fields[1]) ?? .infinity) <= peekTime
    }
    // A frame of nothing, long after: the finger stays down.
    kept.append(Substring("E: " + String(format: "%.6f", peekTime + 600) + " 0000 0000 0000"))
    let path = folder.url.appendingPathComponent("held-peek.evemu").path
    try (kept.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

extension DaemonProcess {
    /// A calibrated replay of ``heldPeekCapture(in:)`` at ten times its pace, its socket and log in
    /// `folder`: a subscriber's first peek comes within half a second and stays open.
    convenience init(holdingAPeekIn folder: TemporaryFolder) throws {
        try self.init(
            ["--replay", try heldPeekCapture(in: folder), "--speed", "10"],
            socketPath: folder.url.appendingPathComponent("s.sock").path,
            logURL: folder.url.appendingPathComponent("daemon.log"), calibrated: true)
    }
}

extension ClientEvents.AsyncIterator {
    /// Events up to (and including) the first `peek`.
    mutating func untilPeek() async throws(PressuredClientError) -> [ClientEvent] {
        var received: [ClientEvent] = []
        while let e = try await next() {
            received.append(e)
            if case .gesture(let g, _, _) = e, g.gesture == .peek { break }
        }
        return received
    }
}

/// What a client must make of a connection lost after `received` (`docs/protocol.md`, "When the
/// connection ends"): each open peek dismissed, then each open contact cancelled, with the contact's last
/// state, marked as synthesized.
func expectedEnds(after received: [ClientEvent]) -> [ClientEvent] {
    var last: [UInt64: PressureEvent] = [:]
    var peeks: [UInt64] = []
    var contacts: [UInt64] = []
    for event in received {
        let e: PressureEvent
        switch event {
        case .gesture(let g, _, _): e = g
        case .touch(let t, _): e = t
        default: continue
        }
        last[e.contact] = e
        switch e.kind {
        case .gesture(.peek): peeks.append(e.contact)
        case .gesture(.pop), .gesture(.dismiss): peeks.removeAll { $0 == e.contact }
        case .touch(.began): contacts.append(e.contact)
        case .touch(.ended), .touch(.cancelled): contacts.removeAll { $0 == e.contact }
        default: break
        }
    }
    func end(_ contact: UInt64, _ kind: PressureEvent.Kind) -> PressureEvent? {
        guard var e = last[contact] else { return nil }
        e.kind = kind
        e.progress = nil
        return e
    }
    return peeks.compactMap { end($0, .gesture(.dismiss)).map { .gesture($0, synthesized: true) } }
        + contacts.compactMap { end($0, .touch(.cancelled)).map { .touch($0, synthesized: true) } }
}
