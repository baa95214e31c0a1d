import Foundation
import TestSupport
import XCTest

/// `pressurectl status` against a real `pressured --replay`.
final class StatusCommandTests: XCTestCase {
    func testStatusPrintsTheDaemonsCounts() throws {
        let d = try DaemonProcess(["--replay", "Tests/Fixtures/peek-pop.evemu"])
        let r = try Executables.run("pressurectl", ["status", "--socket", d.socketPath])
        XCTAssertEqual(r.status, 0, r.stderr)
        // The replay device, and this connection itself (which never subscribed).
        // What the daemon did since it started comes last; its wake-ups depend on the run.
        var out = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let since = out.count > 1 ? out.remove(at: out.count - 2) : ""
        XCTAssertNotNil(since.range(
            of: #"^since start: wakeups \d+, accepted 2, refused 0, acceptErrors 0$"#,
            options: .regularExpression), "\(since) (the probe and this connection accepted)")
        XCTAssertEqual(out.joined(separator: "\n"), """
            devices          1
            clients          1
            subscribers      0
            contacts         0
            regionContacts   0
            regions          0
            quickActionApps  0
            pendingChoices   0
            queuedBytes      0
            device 1 force: unavailable: learning the average touch (0 of 8 ordinary touches); average not learned yet, floor 0, top 1023
            device 1 latency: 0 frames queued; 0 delivered; 0 unmeasured

            """)
        let json = try Executables.run("pressurectl", ["status", "--json", "--socket", d.socketPath])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["devices"] as? Int, 1)
        XCTAssertEqual(object.count, 12)
        XCTAssertEqual((object["latency"] as? [[String: Any]])?.first?["node"] as? String, "replay:Tests/Fixtures/peek-pop.evemu")
        XCTAssertEqual((object["activity"] as? [String: Any])?["refused"] as? Int, 0)
        let force = try XCTUnwrap(object["force"] as? [[String: Any]])
        XCTAssertEqual(force.first?["forceUnavailable"] as? String, "learning")
        XCTAssertEqual(force.first?["averageSource"] as? String, "learned")
        XCTAssertEqual(force.first?["samples"] as? Int, 0)
    }

    func testNoDaemonSaysWhatToCheck() throws {
        let dir = try temporaryFolder(self)
        let r = try Executables.run("pressurectl", ["status", "--socket", dir.appendingPathComponent("none.sock").path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("is pressured running?"), r.stderr)
        XCTAssertEqual(try Executables.run("pressurectl", ["status", "now"]).status, 2)
        let help = try Executables.run("pressurectl", ["status", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("usage: pressurectl status"), help.stdout)
    }
}
