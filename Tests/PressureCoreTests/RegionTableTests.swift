import XCTest
@testable import PressureCore

final class RegionTableTests: XCTestCase {
    func region(_ id: String, owner: Int = 1, _ x: Double, _ y: Double, _ w: Double, _ h: Double, z: Int = 0) -> Region {
        Region(id: id, owner: owner, x: x, y: y, width: w, height: h, z: z)
    }

    func testTopmostWinsThenTheLaterRegistration() {
        var t = RegionTable()
        t.set(region("low", 0, 0, 100, 100, z: 0))
        t.set(region("high", owner: 2, 50, 50, 100, 100, z: 5))
        t.set(region("later", owner: 3, 0, 0, 60, 60, z: 0))
        XCTAssertEqual(t.hit(x: 70, y: 70)?.id, "high")
        XCTAssertEqual(t.hit(x: 10, y: 10)?.id, "later", "same z: the later registration is on top")
        XCTAssertEqual(t.hit(x: 80, y: 10)?.id, "low")
        XCTAssertNil(t.hit(x: 200, y: 200))
        XCTAssertNil(t.hit(x: 100, y: 10), "right and bottom edges are outside")
    }

    func testReplaceRemoveAndConnectionClose() {
        var t = RegionTable()
        t.set(region("a", 0, 0, 10, 10))
        t.set(region("a", 100, 100, 10, 10))  // same owner and id: replaced
        XCTAssertEqual(t.count, 1)
        XCTAssertNil(t.hit(x: 5, y: 5))
        t.set(region("a", owner: 2, 0, 0, 10, 10))  // another owner may use the same id
        XCTAssertEqual(t.count, 2)
        XCTAssertFalse(t.remove(owner: 1, id: "nope"))
        XCTAssertTrue(t.remove(owner: 1, id: "a"))
        t.set(region("b", owner: 2, 20, 20, 10, 10))
        t.removeAll(owner: 2)
        XCTAssertTrue(t.isEmpty)
    }

    func testHundredsOfRegionsStayExact() {
        var t = RegionTable()
        for i in 0..<500 {
            t.set(region("tile\(i)", owner: i % 7, Double(i % 25) * 40, Double(i / 25) * 40, 40, 40, z: i % 3))
        }
        XCTAssertEqual(t.hit(x: 41, y: 41)?.id, "tile26")
        XCTAssertEqual(t.hit(x: 999, y: 799)?.id, "tile499")
    }
}
