@testable import PressureCore
@testable import PressureHub
import XCTest

/// Every transition of ``ClientStanding``, as its table lists them.
final class ClientStandingTests: XCTestCase {
    func testEveryTransition() {
        let table: [(ClientStanding, ClientStanding.Input, ClientStanding, Bool)] = [
            (.open, .inputEnded, .answering, false),
            (.open, .fatal, .closing, false),
            (.open, .written, .open, false),
            (.answering, .inputEnded, .answering, false),
            (.answering, .fatal, .closing, false),
            (.answering, .written, .closed, true),
            (.closing, .inputEnded, .closing, false),
            (.closing, .fatal, .closing, false),
            (.closing, .written, .closed, true),
            (.closed, .inputEnded, .closed, false),
            (.closed, .fatal, .closed, false),
            (.closed, .written, .closed, false),
        ]
        for (from, input, to, closes) in table {
            var s = from
            XCTAssertEqual(s.handle(input), closes, "\(from) → \(input)")
            XCTAssertEqual(s, to, "\(from) → \(input)")
        }
    }

    func testWhatEachStandingReceives() {
        XCTAssertTrue(ClientStanding.open.receives(alone: false, answer: false))
        XCTAssertTrue(ClientStanding.answering.receives(alone: true, answer: true))
        XCTAssertFalse(ClientStanding.answering.receives(alone: true, answer: false), "no events")
        XCTAssertFalse(ClientStanding.answering.receives(alone: false, answer: true), "no broadcasts")
        for s in [ClientStanding.closing, .closed] {
            XCTAssertFalse(s.receives(alone: true, answer: true))
        }
    }
}
