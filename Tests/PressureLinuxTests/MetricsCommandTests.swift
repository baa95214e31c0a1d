import Foundation
import TestSupport
import XCTest

/// Latency telemetry end to end: a real `pressured --replay`, its `status` reply, and `pressurectl metrics`
/// on standard output and as node_exporter's textfile, with the errors an operator meets.
final class MetricsCommandTests: XCTestCase {
    let fixture = "Tests/Fixtures/peek-pop.evemu"

    /// Frames (`SYN_REPORT`s) in the fixture.
    func frameCount() throws -> Int {
        let text = try String(contentsOf: Executables.repoRoot.appendingPathComponent(fixture), encoding: .utf8)
        return text.split(separator: "\n").filter { $0.hasPrefix("E:") && $0.hasSuffix(" 0000 0000 0000") }.count
    }

    /// A daemon that has replayed the fixture at full speed to a subscriber of gestures and touches, which
    /// has hung up since.
    func replayed() throws -> DaemonProcess {
        let d = try DaemonProcess(["--replay", fixture, "--speed", "0"])
        let client = try SocketClient(path: d.socketPath)
        _ = client.readLine()  // hello
        client.send(#"{"request":"subscribe","events":["gestures","touches"]}"# + "\n")
        XCTAssertTrue(d.waitForLog("replay finished"), d.log)
        client.close()
        XCTAssertTrue(Wait.until { (try? status(d))?["clients"] as? Int == 1 }, "the subscriber's hang-up was seen")
        return d
    }

    /// `pressurectl status --json`, the daemon's answer as it is.
    func status(_ d: DaemonProcess) throws -> [String: Any] {
        let r = try Executables.run("pressurectl", ["status", "--json", "--socket", d.socketPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    func testTheStatusReplyCarriesEveryFramesLatencyAfterAReplay() throws {
        let d = try replayed()
        let object = try status(d)
        let latency = try XCTUnwrap(object["latency"] as? [[String: Any]])
        XCTAssertEqual(latency.count, 1, "the replay's device, gone, keeps its figures")
        let entry = latency[0]
        XCTAssertEqual(entry["device"] as? Int, 1)
        XCTAssertEqual(entry["node"] as? String, "replay:" + fixture)
        let queue = try XCTUnwrap(entry["queue"] as? [String: Any])
        let delivery = try XCTUnwrap(entry["delivery"] as? [String: Any])
        let unmeasured = try XCTUnwrap(entry["unmeasured"] as? Int)
        XCTAssertEqual((queue["count"] as? Int ?? -1) + unmeasured, try frameCount(), "every frame is counted once")
        XCTAssertEqual(unmeasured, 0, "a fixture this short is measured whole")
        for h in [queue, delivery] {
            let buckets = try XCTUnwrap(h["buckets"] as? [Int])
            XCTAssertEqual(buckets.count, 19)
            XCTAssertEqual(buckets.reduce(0, +), h["count"] as? Int)
            XCTAssertNotNil(h["sum"] as? Double)
        }
        let delivered = try XCTUnwrap(delivery["count"] as? Int)
        XCTAssertGreaterThan(delivered, 0, "the subscriber was written every touch")
        XCTAssertLessThanOrEqual(delivered, queue["count"] as? Int ?? 0)
        let human = try Executables.run("pressurectl", ["status", "--socket", d.socketPath])
        XCTAssertTrue(human.stdout.contains("device 1 latency: \(queue["count"] ?? "?") frames queued"), human.stdout)
    }

    func testMetricsIsValidOpenMetricsWithTheReplaysHistograms() throws {
        let d = try replayed()
        let r = try Executables.run("pressurectl", ["metrics", "--socket", d.socketPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        let check = OpenMetricsCheck(r.stdout)
        XCTAssertEqual(check.problems, [], r.stdout)
        XCTAssertEqual(check.types["pressured_frame_queue_latency_seconds"], "histogram")
        XCTAssertEqual(check.types["pressured_frame_delivery_latency_seconds"], "histogram")
        func value(_ name: String) -> Double? { check.samples.first { $0.name == name }?.value }
        XCTAssertEqual(value("pressured_up"), 1)
        XCTAssertEqual(value("pressured_devices"), 0, "the replay has ended")
        // This connection, and perhaps the last status request's, whose hang-up may not be seen yet.
        XCTAssertGreaterThanOrEqual(value("pressured_clients") ?? 0, 1)
        let queue = check.series(of: "pressured_frame_queue_latency_seconds")
        XCTAssertEqual(queue.count, 1)
        let (labels, h) = try XCTUnwrap(queue.first)
        XCTAssertEqual(labels, ["device": "1", "node": "replay:" + fixture])
        XCTAssertEqual(h.count, Double(try frameCount()))
        XCTAssertEqual(h.buckets.count, 19)
        XCTAssertEqual(h.buckets.first?.le, 0.00001)
        XCTAssertGreaterThan(check.series(of: "pressured_frame_delivery_latency_seconds").first?.value.count ?? 0, 0)
    }

    func testTextfileIsReplacedWholeAndLeavesNothingBeside() throws {
        let d = try replayed()
        let dir = try temporaryFolder(self)
        let file = dir.appendingPathComponent("pressured.prom")
        try "stale_metric 1\n".write(to: file, atomically: false, encoding: .utf8)
        let before = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? UInt64)
        let r = try Executables.run("pressurectl", ["metrics", "--textfile", dir.path, "--socket", d.socketPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "", "the text goes to the file only")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["pressured.prom"], "no temporary file left")
        let written = try String(contentsOf: file, encoding: .utf8)
        XCTAssertFalse(written.contains("stale_metric"))
        XCTAssertEqual(OpenMetricsCheck(written).problems, [])
        let printed = try Executables.run("pressurectl", ["metrics", "--socket", d.socketPath])
        // The same text but the count of clients, which the previous run's hang-up may or may not be in.
        func steady(_ text: String) -> [Substring] { text.split(separator: "\n").filter { !$0.hasPrefix("pressured_clients ") } }
        XCTAssertEqual(steady(written), steady(printed.stdout), "the file holds what stdout gets")
        let after = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? UInt64)
        XCTAssertNotEqual(before, after, "renamed over the old file, not written into it")
        let mode = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        XCTAssertEqual(mode, 0o644, "node_exporter, another user, reads it")
    }

    func testNoDaemonOrNoDirectorySaysSoWithItsOwnExitStatus() throws {
        let dir = try temporaryFolder(self)
        let none = dir.appendingPathComponent("none.sock").path
        let r = try Executables.run("pressurectl", ["metrics", "--socket", none])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("is pressured running?"), r.stderr)
        // With --textfile the file says the daemon is down, so a stale one never passes for figures.
        let down = try Executables.run("pressurectl", ["metrics", "--socket", none, "--textfile", dir.path])
        XCTAssertEqual(down.status, 1)
        let text = try String(contentsOf: dir.appendingPathComponent("pressured.prom"), encoding: .utf8)
        XCTAssertEqual(OpenMetricsCheck(text).problems, [])
        XCTAssertTrue(text.contains("\npressured_up 0\n"), text)
        // A directory that cannot be written (here a plain file, which no user can make files in).
        let plain = dir.appendingPathComponent("pressured.prom").path
        let d = try DaemonProcess(["--replay", fixture])
        let bad = try Executables.run("pressurectl", ["metrics", "--socket", d.socketPath, "--textfile", plain])
        XCTAssertEqual(bad.status, 3)
        XCTAssertTrue(bad.stderr.contains("cannot create \(plain)/.pressured.prom."), bad.stderr)
        XCTAssertTrue(bad.stderr.contains("Not a directory"), bad.stderr)
        XCTAssertEqual(try Executables.run("pressurectl", ["metrics", "now"]).status, 2)
        XCTAssertEqual(try Executables.run("pressurectl", ["metrics", "--textfile"]).status, 2)
        let help = try Executables.run("pressurectl", ["metrics", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("usage: pressurectl metrics"), help.stdout)
    }
}
