import XCTest

@testable import PressureCore

/// Hold mode's slot machine (``HeldTouch``): every transition of the table in its doc comment, each state
/// (free; holding, before and after its lift; withheld) driven with each input.
final class HeldTouchTests: XCTestCase {
    static let x = InputEvent(time: Timestamp(microseconds: 0), type: EventType.abs, code: AbsCode.mtPositionX, value: 40)

    /// A held contact 5 at its first point, its begin frame over (`begun`), lifted or not.
    static func held(lifted: Bool = false) -> HeldTouch.Held {
        var h = HeldTouch.Held(trackingID: 5)
        h.begun = true
        h.lifted = lifted
        return h
    }

    static var moved: HeldTouch.Held {
        var h = held()
        h.remember(x)
        return h
    }

    static var liftedLater: HeldTouch.Held { held(lifted: true) }

    /// The table, row by row: (state, input) → (next state, action). The panel's next contact is 7.
    static var table: [(HeldTouch, HeldTouch.Input, HeldTouch, HeldTouch.Action)] {
        let h = held(), l = held(lifted: true)
        return [
            (.free, .began(trackingID: 7, hold: true), .holding(.init(trackingID: 7)), .keep),
            (.free, .began(trackingID: 7, hold: false), .free, .pass),
            (.free, .value(x), .free, .pass),
            (.free, .lifted, .free, .pass),
            (.free, .frameEnd(.hold), .free, .nothing),
            (.free, .frameEnd(.take), .free, .nothing),
            (.free, .frameEnd(.release), .free, .nothing),
            (.free, .end, .free, .nothing),

            (.holding(h), .began(trackingID: 7, hold: true), .holding(.init(trackingID: 7)), .keep),
            (.holding(h), .began(trackingID: 7, hold: false), .free, .pass),
            (.holding(h), .value(x), .holding(moved), .keep),
            (.holding(h), .lifted, .holding(l), .keep),
            (.holding(h), .frameEnd(.hold), .holding(h), .nothing),
            (.holding(h), .frameEnd(.take), .withheld(trackingID: 5), .nothing),
            (.holding(h), .frameEnd(.release), .free, .release(h)),
            (.holding(h), .end, .free, .nothing),

            (.holding(l), .frameEnd(.hold), .free, .release(l)),
            (.holding(l), .frameEnd(.take), .free, .nothing),
            (.holding(l), .frameEnd(.release), .free, .release(l)),

            (.withheld(trackingID: 5), .began(trackingID: 7, hold: true), .holding(.init(trackingID: 7)), .keep),
            (.withheld(trackingID: 5), .began(trackingID: 7, hold: false), .free, .pass),
            (.withheld(trackingID: 5), .value(x), .withheld(trackingID: 5), .keep),
            (.withheld(trackingID: 5), .lifted, .free, .keep),
            (.withheld(trackingID: 5), .frameEnd(.hold), .withheld(trackingID: 5), .nothing),
            (.withheld(trackingID: 5), .frameEnd(.take), .withheld(trackingID: 5), .nothing),
            (.withheld(trackingID: 5), .frameEnd(.release), .withheld(trackingID: 5), .nothing),
            (.withheld(trackingID: 5), .end, .free, .nothing),
        ]
    }

    func testEveryTransitionOfTheTable() {
        for (k, (state, input, next, action)) in Self.table.enumerated() {
            var s = state
            XCTAssertEqual(s.apply(input), action, "row \(k + 1): \(state) → \(input)")
            XCTAssertEqual(s, next, "row \(k + 1): \(state) → \(input)")
        }
    }

    /// The down is the frame the contact began in; what comes after is its moves, the latest of each code.
    func testTheDownIsItsFirstFrameAndTheMovesAreCoalesced() {
        var s = HeldTouch.free
        func x(_ v: Int32) -> InputEvent { InputEvent(time: Timestamp(microseconds: 0), type: EventType.abs, code: AbsCode.mtPositionX, value: v) }
        _ = s.apply(.began(trackingID: 9, hold: true))
        _ = s.apply(.value(x(1)))
        _ = s.apply(.value(x(2)))
        _ = s.apply(.frameEnd(.hold))
        _ = s.apply(.value(x(3)))
        _ = s.apply(.value(x(4)))
        guard case .release(let h) = s.apply(.frameEnd(.release)) else { return XCTFail("not released: \(s)") }
        XCTAssertEqual(h.down.map(\.value), [9, 2], "its tracking id and its first frame's last position")
        XCTAssertEqual(h.moves.map(\.value), [4])
    }
}
