import PressureProtocol
import XCTest

final class OptionalEarliestTests: XCTestCase {
    func testTheEarlierOfTwoTimesOrWhicheverIsSet() {
        let one = Timestamp(microseconds: 1), two = Timestamp(microseconds: 2)
        XCTAssertEqual(Timestamp?.earliest(one, two), one)
        XCTAssertEqual(Timestamp?.earliest(two, one), one)
        XCTAssertEqual(Timestamp?.earliest(two, two), two)
        XCTAssertEqual(Timestamp?.earliest(nil, two), two)
        XCTAssertEqual(Timestamp?.earliest(one, nil), one)
        XCTAssertNil(Timestamp?.earliest(nil, nil))
    }

    func testMonotonicMicrosecondsToo() {
        var earliest: Int64? = nil
        for t: Int64? in [nil, 30, nil, 10, 20] { earliest = .earliest(earliest, t) }
        XCTAssertEqual(earliest, 10)
    }
}
