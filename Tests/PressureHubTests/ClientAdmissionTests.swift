@testable import PressureCore
@testable import PressureHub
import XCTest

/// ``ClientAdmission``: room below the cap, and a refusal that says why, as a fatal error line.
final class ClientAdmissionTests: XCTestCase {
    func testRoomBelowTheCapOnly() {
        let admission = ClientAdmission(maximumClients: 2)
        XCTAssertTrue(admission.hasRoom(connected: 0))
        XCTAssertTrue(admission.hasRoom(connected: 1))
        XCTAssertFalse(admission.hasRoom(connected: 2))
    }

    func testTheRefusalSaysWhyInAFatalTooManyClientsLine() throws {
        let (why, line) = ClientAdmission(maximumClients: 1).refusal(connected: 1)
        XCTAssertEqual(why, "1 client is connected, as many as MaxClients = 1 allows")
        let text = try XCTUnwrap(String(bytes: line, encoding: .utf8))
        XCTAssertTrue(text.hasSuffix("\n"))
        XCTAssertTrue(text.contains(#""error":"too-many-clients""#), text)
        XCTAssertTrue(text.contains(#""fatal":true"#), text)
        XCTAssertEqual(ClientAdmission(maximumClients: 3).refusal(connected: 3).why, "3 clients are connected, as many as MaxClients = 3 allows")
    }
}
