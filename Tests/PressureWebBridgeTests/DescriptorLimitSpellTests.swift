import XCTest

@testable import PressureWebBridge

/// Every transition of the spell's table: one warning when it begins, failures counted, one summary
/// when a page is served again, nothing while quiet.
final class DescriptorLimitSpellTests: XCTestCase {
    func testEveryTransition() {
        var s = DescriptorLimitSpell()
        XCTAssertNil(s.handle(.served, now: 0), "quiet, served: nothing")
        XCTAssertEqual(s.state, .quiet)
        XCTAssertEqual(s.handle(.failed(refused: true), now: 1_000_000), .warning)
        XCTAssertEqual(s.state, .atLimit(since: 1_000_000, failures: 1, refused: 1))
        XCTAssertNil(s.handle(.failed(refused: false), now: 1_500_000))
        XCTAssertNil(s.handle(.failed(refused: true), now: 2_000_000))
        XCTAssertEqual(s.state, .atLimit(since: 1_000_000, failures: 3, refused: 2))
        XCTAssertEqual(s.handle(.served, now: 4_200_000), .summary(seconds: 3, failures: 3, refused: 2))
        XCTAssertEqual(s.state, .quiet)
        XCTAssertEqual(s.handle(.failed(refused: false), now: 5_000_000), .warning, "a new spell, a new warning")
        XCTAssertEqual(s.totalRefused, 2)
    }
}
