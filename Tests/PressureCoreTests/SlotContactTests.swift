import XCTest
@testable import PressureCore

/// Every transition of ``SlotContact``, as its doc comment tables them.
final class SlotContactTests: XCTestCase {
    func testEveryTransitionOfTheTable() {
        typealias R = SlotContact.Reading
        let palm = R.palm(bySize: false), big = R.palm(bySize: true)
        let table: [(SlotContact, R, SlotContact, SlotContact.Action)] = [
            (.idle, .absent, .idle, .nothing),
            (.idle, .hovering, .hovering, .nothing),
            (.idle, palm, .ignored(.palm), .ignorePalm(bySize: false)),
            (.idle, big, .ignored(.palm), .ignorePalm(bySize: true)),
            (.idle, .touching, .touching, .begin),
            (.hovering, .absent, .idle, .nothing),
            (.hovering, .hovering, .hovering, .nothing),
            (.hovering, palm, .ignored(.palm), .ignorePalm(bySize: false)),
            (.hovering, big, .ignored(.palm), .ignorePalm(bySize: true)),
            (.hovering, .touching, .touching, .begin),
            (.touching, .absent, .idle, .end),
            (.touching, .hovering, .hovering, .end),
            (.touching, palm, .ignored(.palm), .cancelAsPalm(bySize: false)),
            (.touching, big, .ignored(.palm), .cancelAsPalm(bySize: true)),
            (.touching, .touching, .touching, .carryOn),
        ]
        for (from, reading, to, action) in table {
            let (next, got) = from.next(reading)
            XCTAssertEqual(next, to, "\(from.name) → \(reading)")
            XCTAssertEqual(got, action, "\(from.name) → \(reading)")
        }
        for why in [SlotContact.IgnoredBecause.palm, .dropped] {
            let ignored = SlotContact.ignored(why)
            XCTAssertTrue(ignored.next(.absent) == (.idle, .nothing), ignored.name)
            for reading in [R.hovering, palm, big, .touching] {
                XCTAssertTrue(ignored.next(reading) == (ignored, .nothing), "\(ignored.name) latches on \(reading)")
            }
        }
    }

    func testALiftEndsATouchAndEmptiesEveryOtherState() {
        XCTAssertTrue(SlotContact.touching.lifted() == (.idle, .end))
        for s in [SlotContact.idle, .hovering, .ignored(.palm), .ignored(.dropped)] {
            XCTAssertTrue(s.lifted() == (.idle, .nothing), s.name)
        }
    }
}
