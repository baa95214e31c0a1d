@testable import PressureDeviceTools
import XCTest

/// `LabelPlacer`: a gesture label is drawn only where it covers no label already drawn and no other
/// contact's marker.
final class LabelPlacerTests: XCTestCase {
    func testALabelOverAnotherIsLeftOut() {
        var placer = LabelPlacer(markers: [(100, 200, 1), (104, 200, 2), (300, 200, 3)])
        XCTAssertTrue(placer.place("peek", x: 106, baseline: 180, contact: 1))
        // The second contact's label would sit on the first's.
        XCTAssertFalse(placer.place("peek", x: 110, baseline: 180, contact: 2))
        // Far enough to the right, it has room.
        XCTAssertTrue(placer.place("peek", x: 306, baseline: 180, contact: 3))
        XCTAssertEqual(placer.dropped, 1)
        XCTAssertEqual(placer.placed.count, 2)
    }

    func testALabelMayCrossItsOwnContactsMarkersButNotAnothers() {
        var placer = LabelPlacer(markers: [(100, 200, 1), (130, 188, 1), (400, 200, 2), (430, 188, 3)])
        XCTAssertTrue(placer.place("quickActions", x: 106, baseline: 190, contact: 1))
        XCTAssertFalse(placer.place("quickActions", x: 406, baseline: 190, contact: 2))
    }

    func testLabelsFarApartAreAllPlaced() {
        let points = (0..<500).map { (Double($0) * 100, 200.0, UInt64($0)) }
        var placer = LabelPlacer(markers: points)
        for (x, y, c) in points { XCTAssertTrue(placer.place("longPress", x: x + 6, baseline: y + 20, contact: c)) }
        XCTAssertEqual(placer.dropped, 0)
    }
}
