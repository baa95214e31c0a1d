@testable import PressureCore
@testable import PressureHub
import XCTest

/// ``TakenTouches`` on its own: which gestures a region's owner got take a touch, and how long it stays
/// taken (until it ends, or its device goes), device by device.
final class TakenTouchesTests: XCTestCase {
    let touch = ContactKey(device: 1, contact: 7)

    func testEveryGestureButADismissTakesTheTouch() {
        for g in GestureKind.allCases {
            var taken = TakenTouches()
            taken.gave(g, of: touch)
            let takes = g != .dismiss  // a pop comes to an owner only after its peek, which took the touch
            XCTAssertEqual(taken.contacts(ofDevice: 1), takes ? [7] : [], g.rawValue)
            XCTAssertEqual(taken.isEmpty, !takes, g.rawValue)
        }
    }

    func testATakenTouchStaysSoUntilItEnds() {
        var taken = TakenTouches()
        taken.gave(.peek, of: touch)
        taken.gave(.pop, of: touch)
        XCTAssertEqual(taken.contacts(ofDevice: 1), [7], "the pop follows the peek that took it")
        taken.ended(ContactKey(device: 2, contact: 7))
        XCTAssertEqual(taken.contacts(ofDevice: 1), [7], "another device's contact 7")
        taken.ended(touch)
        XCTAssertTrue(taken.isEmpty)
        taken.ended(touch)
        XCTAssertTrue(taken.isEmpty, "ending twice is harmless")
    }

    func testEachDevicesTouchesAreItsOwnAndGoWithIt() {
        var taken = TakenTouches()
        taken.gave(.longPress, of: touch)
        taken.gave(.peek, of: ContactKey(device: 1, contact: 8))
        taken.gave(.quickActions, of: ContactKey(device: 2, contact: 7))
        XCTAssertEqual(taken.contacts(ofDevice: 1).sorted(), [7, 8])
        XCTAssertEqual(taken.contacts(ofDevice: 2), [7])
        XCTAssertEqual(taken.contacts(ofDevice: 3), [])
        taken.forget(device: 1)
        XCTAssertEqual(taken.contacts(ofDevice: 1), [])
        XCTAssertEqual(taken.contacts(ofDevice: 2), [7])
    }
}
