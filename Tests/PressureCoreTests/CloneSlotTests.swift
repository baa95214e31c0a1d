import XCTest

@testable import PressureCore

/// Filter mode's clone slot (``CloneSlot``): every transition of the table in its doc comment, each state
/// driven with each input, the tracking ids chosen so that a restatement meets the clone's own contact, another
/// one, and none.
final class CloneSlotTests: XCTestCase {
    /// The table, row by row: (state, input) → (next state, action). The clone's contact, where it has one,
    /// is 5; the panel's other contact is 7.
    static let table: [(CloneSlot, CloneSlot.Input, CloneSlot, CloneSlot.Action)] = [
        (.idle, .trackingID(7), .down(trackingID: 7), .pass),
        (.idle, .trackingID(-1), .idle, .pass),
        (.idle, .toolType, .idle, .pass),
        (.idle, .cancel, .palmIdle, .markPalm),
        (.idle, .end, .palmIdle, .palmAndLift),
        (.idle, .restated(trackingID: 5), .down(trackingID: 5), .restate(liftFirst: false, fingerFirst: false)),
        (.idle, .restated(trackingID: 7), .down(trackingID: 7), .restate(liftFirst: false, fingerFirst: false)),
        (.idle, .restated(trackingID: -1), .idle, .restate(liftFirst: false, fingerFirst: false)),

        (.down(trackingID: 5), .trackingID(7), .down(trackingID: 7), .pass),
        (.down(trackingID: 5), .trackingID(-1), .idle, .pass),
        (.down(trackingID: 5), .toolType, .down(trackingID: 5), .pass),
        (.down(trackingID: 5), .cancel, .palm(trackingID: 5), .markPalm),
        (.down(trackingID: 5), .end, .palmIdle, .palmAndLift),
        (.down(trackingID: 5), .restated(trackingID: 5), .down(trackingID: 5), .restate(liftFirst: false, fingerFirst: false)),
        (.down(trackingID: 5), .restated(trackingID: 7), .down(trackingID: 7), .restate(liftFirst: true, fingerFirst: false)),
        (.down(trackingID: 5), .restated(trackingID: -1), .idle, .restate(liftFirst: true, fingerFirst: false)),

        (.palm(trackingID: 5), .trackingID(7), .down(trackingID: 7), .toolFirst),
        (.palm(trackingID: 5), .trackingID(-1), .palmIdle, .pass),
        (.palm(trackingID: 5), .toolType, .palm(trackingID: 5), .drop),
        (.palm(trackingID: 5), .cancel, .palm(trackingID: 5), .nothing),
        (.palm(trackingID: 5), .end, .palmIdle, .palmAndLift),
        (.palm(trackingID: 5), .restated(trackingID: 5), .palm(trackingID: 5), .restate(liftFirst: false, fingerFirst: false)),
        (.palm(trackingID: 5), .restated(trackingID: 7), .down(trackingID: 7), .restate(liftFirst: true, fingerFirst: true)),
        (.palm(trackingID: 5), .restated(trackingID: -1), .palmIdle, .restate(liftFirst: true, fingerFirst: false)),

        (.palmIdle, .trackingID(7), .down(trackingID: 7), .toolFirst),
        (.palmIdle, .trackingID(-1), .palmIdle, .pass),
        (.palmIdle, .toolType, .palmIdle, .drop),
        (.palmIdle, .cancel, .palmIdle, .nothing),
        (.palmIdle, .end, .palmIdle, .palmAndLift),
        (.palmIdle, .restated(trackingID: 5), .down(trackingID: 5), .restate(liftFirst: false, fingerFirst: true)),
        (.palmIdle, .restated(trackingID: 7), .down(trackingID: 7), .restate(liftFirst: false, fingerFirst: true)),
        (.palmIdle, .restated(trackingID: -1), .palmIdle, .restate(liftFirst: false, fingerFirst: false)),
    ]

    static let states: [CloneSlot] = [.idle, .down(trackingID: 5), .palm(trackingID: 5), .palmIdle]
    static let inputs: [CloneSlot.Input] = [
        .trackingID(7), .trackingID(-1), .toolType, .cancel, .end,
        .restated(trackingID: 5), .restated(trackingID: 7), .restated(trackingID: -1),
    ]

    func testEveryTransitionOfTheTable() {
        for (state, input, next, action) in Self.table {
            var slot = state
            XCTAssertEqual(slot.apply(input), action, "\(state) on \(input)")
            XCTAssertEqual(slot, next, "\(state) on \(input)")
        }
    }

    func testTheTableHasEveryStateAndInput() {
        for state in Self.states {
            for input in Self.inputs {
                XCTAssertEqual(Self.table.filter { $0.0 == state && $0.1 == input }.count, 1, "\(state) on \(input)")
            }
        }
        XCTAssertEqual(Self.table.count, Self.states.count * Self.inputs.count)
    }

    func testOnlyThePalmStatesArePalms() {
        XCTAssertEqual(Self.states.map(\.isPalm), [false, false, true, true])
    }
}
