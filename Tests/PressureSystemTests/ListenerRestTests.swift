import XCTest

@testable import PressureSystem

/// A listener's rest: begun, over at its time, ended early when a descriptor frees, counted.
final class ListenerRestTests: XCTestCase {
    func testARestLastsItsPeriodOrUntilEnded() {
        var r = ListenerRest()
        XCTAssertFalse(r.isResting)
        XCTAssertFalse(r.end(), "nothing to end")
        r.begin(now: 10)
        XCTAssertEqual(r.until, 10 + ListenerRest.period)
        XCTAssertFalse(r.isOver(now: 10 + ListenerRest.period - 1))
        XCTAssertTrue(r.isOver(now: 10 + ListenerRest.period))
        XCTAssertTrue(r.end())
        XCTAssertFalse(r.isResting)
        XCTAssertFalse(r.isOver(now: Int64.max))
        r.begin(now: 50)
        XCTAssertTrue(r.end(), "ended early: a descriptor freed")
        XCTAssertEqual(r.count, 2)
    }
}
