import XCTest

@testable import PressureSystem

/// The token's two halves survive the round trip; an unknown kind is told, not guessed.
final class EpollTokenTests: XCTestCase {
    enum Kind: UInt32 { case listener = 1, client }

    func testKindAndIdRoundTrip() {
        let t = EpollToken(Kind.client, 0xffff_fffe)
        XCTAssertEqual(t.rawValue, 2 << 32 | 0xffff_fffe)
        XCTAssertEqual(EpollToken<Kind>(rawValue: t.rawValue), t)
        XCTAssertEqual(EpollToken<Kind>(rawValue: 1 << 32), EpollToken(.listener))
        XCTAssertEqual(EpollToken(Kind.listener).id, 0)
    }

    func testAnUnknownKindIsNil() {
        XCTAssertNil(EpollToken<Kind>(rawValue: 3 << 32 | 7))
        XCTAssertNil(EpollToken<Kind>(rawValue: 0))
    }
}
