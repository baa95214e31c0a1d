import XCTest

@testable import PressureClient

/// ``OpenTouches``: every way a peek and a contact open and close, and the ends a connection's end makes
/// of what is still open (`docs/protocol.md`, "When the connection ends").
final class OpenTouchesTests: XCTestCase {
    func point(_ kind: PressureEvent.Kind, _ contact: UInt64, at t: Int64, x: Int32 = 100, force: Double = 1,
               device: Int = 1, progress: Double? = nil) -> PressureEvent
    {
        PressureEvent(
            kind: kind, time: Timestamp(microseconds: t), device: device, contact: contact, x: x, y: 200,
            screenX: Double(x), screenY: 200, force: force, maximumPossibleForce: 2.5, progress: progress)
    }

    func ends(_ events: [ClientEvent]) -> [ClientEvent] {
        var open = OpenTouches()
        for e in events { open.saw(e) }
        return open.endAll()
    }

    func testAPeekEndsInItsPopOrDismissAndAContactInItsEndedOrCancelled() {
        for peekEnd in [GestureKind.pop, .dismiss] {
            XCTAssertEqual(ends([.gesture(point(.gesture(.peek), 1, at: 1)), .gesture(point(.gesture(peekEnd), 1, at: 2))]), [])
        }
        for touchEnd in [PressureEvent.TouchPhase.ended, .cancelled] {
            XCTAssertEqual(ends([.touch(point(.touch(.began), 1, at: 1)), .touch(point(.touch(touchEnd), 1, at: 2))]), [])
        }
        // Neither quick actions nor a long press ends a peek; nothing but a began opens a contact.
        let open: [ClientEvent] = [
            .gesture(point(.gesture(.peek), 1, at: 1)), .gesture(point(.gesture(.quickActions), 1, at: 2)),
            .gesture(point(.gesture(.longPress), 2, at: 3)), .touch(point(.touch(.moved), 3, at: 4)),
        ]
        XCTAssertEqual(ends(open), [.gesture(point(.gesture(.dismiss), 1, at: 2), synthesized: true)])
    }

    func testEveryDismissComesFirstEachWithItsContactsLastStateAndItsPeeksRegion() {
        let events: [ClientEvent] = [
            .touch(point(.touch(.began), 1, at: 1, force: 0.3)),
            .touch(point(.touch(.began), 2, at: 2, x: 500, force: 0.2)),
            .gesture(point(.gesture(.peek), 2, at: 3, x: 510, force: 1.5), tags: RegionTags(region: "tile:2")),
            .touch(point(.touch(.moved), 2, at: 3, x: 510, force: 1.5, progress: 0.4)),
            .gesture(point(.gesture(.peek), 1, at: 4, x: 105, force: 1.6, device: 2)),
            .touch(point(.touch(.moved), 1, at: 5, x: 108, force: 1.7, progress: 0.7)),
        ]
        XCTAssertEqual(
            ends(events),
            [
                .gesture(point(.gesture(.dismiss), 2, at: 3, x: 510, force: 1.5), tags: RegionTags(region: "tile:2"), synthesized: true),
                // Device 2's contact 1 is another contact than device 1's.
                .gesture(point(.gesture(.dismiss), 1, at: 4, x: 105, force: 1.6, device: 2), synthesized: true),
                .touch(point(.touch(.cancelled), 1, at: 5, x: 108, force: 1.7), synthesized: true),
                .touch(point(.touch(.cancelled), 2, at: 3, x: 510, force: 1.5), synthesized: true),
            ])
    }

    func testNothingIsOpenAfterTheEndsOrForOtherEvents() {
        var open = OpenTouches()
        open.saw(.touch(point(.touch(.began), 1, at: 1)))
        open.saw(.bye(reason: "shutdown"))
        XCTAssertEqual(open.endAll().count, 1)
        XCTAssertEqual(open.endAll(), [])
        XCTAssertTrue(ends([.touch(point(.touch(.began), 1, at: 1))]).allSatisfy(\.isSynthesized))
        XCTAssertFalse(ClientEvent.touch(point(.touch(.began), 1, at: 1)).isSynthesized)
    }
}
