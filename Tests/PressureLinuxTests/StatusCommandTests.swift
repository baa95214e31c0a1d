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
        XCTAssertEqual(r.stdout, """
            devices          1
            clients          1
            subscribers      0
            contacts         0
            regionContacts   0
            regions          0
            quickActionApps  0
            pendingChoices   0
            queuedBytes      0

            """)
        let json = try Executables.run("pressurectl", ["status", "--json", "--socket", d.socketPath])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Int])
        XCTAssertEqual(object["devices"], 1)
        XCTAssertEqual(object.count, 9)
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
