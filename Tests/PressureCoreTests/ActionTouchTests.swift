import XCTest

@testable import PressureCore

/// The pure decision of actions: which action a touch arms as it begins, which fires on which gesture,
/// and every transition of ``ActionTouch``'s table.
final class ActionTouchTests: XCTestCase {
    let popClick = DeviceAction(gesture: .pop, does: .click(.right), source: "[action] a.conf:1")
    let holdClick = DeviceAction(gesture: .longPress, does: .click(.right), source: "[action] a.conf:4")
    let popMenuLeft = DeviceAction(
        gesture: .pop, does: .keys(try! KeyCombination(parsing: "Menu")),
        areas: [ScreenArea(x: 0, y: 0, width: 100, height: 100)], source: "[action] a.conf:7")
    let popNoneCorner = DeviceAction(
        gesture: .pop, does: .none, areas: [ScreenArea(x: 0, y: 0, width: 10, height: 10)], source: "[action] a.conf:10")

    var actions: DeviceActions { DeviceActions([popClick, holdClick, popMenuLeft, popNoneCorner]) }

    func testTheLastCoveringActionWinsPerGesture() {
        let far = actions.armed(x: 500, y: 500, inRegion: false, force: true)
        XCTAssertEqual(far[.pop], popClick)
        XCTAssertEqual(far[.longPress], holdClick)
        XCTAssertNil(far[.peek])
        let left = actions.armed(x: 50, y: 50, inRegion: false, force: true)
        XCTAssertEqual(left[.pop], popMenuLeft, "a later section overrides an earlier one where its area holds the touch")
        let corner = actions.armed(x: 5, y: 5, inRegion: false, force: true)
        XCTAssertNil(corner[.pop], "Does = none takes the gesture back")
        XCTAssertEqual(corner[.longPress], holdClick)
        // The area's far edges are outside it.
        XCTAssertEqual(actions.armed(x: 100, y: 50, inRegion: false, force: true)[.pop], popClick)
    }

    func testRegionsAndForce() {
        XCTAssertTrue(actions.armed(x: 500, y: 500, inRegion: true, force: true).isEmpty, "an app's region is the app's")
        let noForce = actions.armed(x: 500, y: 500, inRegion: false, force: false)
        XCTAssertNil(noForce[.pop], "force off: force actions off")
        XCTAssertEqual(noForce[.longPress], holdClick, "the hold stays")
        let popOnly = DeviceActions([popClick])
        XCTAssertTrue(popOnly.wouldTake(x: 1, y: 1, inRegion: false, force: true))
        XCTAssertFalse(popOnly.wouldTake(x: 1, y: 1, inRegion: false, force: false))
        XCTAssertFalse(popOnly.wouldTake(x: 1, y: 1, inRegion: true, force: true))
        XCTAssertFalse(DeviceActions().wouldTake(x: 1, y: 1, inRegion: false, force: true))
    }

    /// Every row of the table in ``ActionTouch``'s doc comment, in its order.
    func testEveryTransition() {
        var armed = ArmedActions()
        armed[.pop] = popClick
        armed[.longPress] = holdClick
        let fired = ActionTouch.fired(popClick)
        let rows: [(ActionTouch, ActionTouch.Input, ActionTouch, ActionTouch.Effect)] = [
            (.idle, .began(ArmedActions()), .idle, .nothing),
            (.idle, .began(armed), .armed(armed), .nothing),
            (.idle, .gesture(.pop, force: true), .idle, .nothing),
            (.idle, .ended, .idle, .nothing),
            (.armed(armed), .gesture(.pop, force: true), fired, .fire(popClick)),
            (.armed(armed), .gesture(.longPress, force: false), .fired(holdClick), .fire(holdClick)),
            (.armed(armed), .gesture(.pop, force: false), .armed(armed), .nothing),
            (.armed(armed), .gesture(.peek, force: true), .armed(armed), .nothing),
            (.armed(armed), .gesture(.dismiss, force: true), .armed(armed), .nothing),
            (.armed(armed), .gesture(.quickActions, force: true), .armed(armed), .nothing),
            (.armed(armed), .ended, .idle, .nothing),
            (.armed(armed), .began(ArmedActions()), .idle, .impossible),
            (fired, .gesture(.longPress, force: true), fired, .nothing),
            (fired, .gesture(.dismiss, force: true), fired, .nothing),
            (fired, .ended, .idle, .nothing),
            (fired, .began(armed), .armed(armed), .impossible),
        ]
        for (from, input, to, effect) in rows {
            var state = from
            XCTAssertEqual(state.handle(input), effect, "\(from) → \(input)")
            XCTAssertEqual(state, to, "\(from) → \(input)")
        }
    }

    func testAPressThatPeeksThenPopsFiresOnThePop() {
        var touch = ActionTouch.idle
        _ = touch.handle(.began(actions.armed(x: 500, y: 500, inRegion: false, force: true)))
        XCTAssertEqual(touch.handle(.gesture(.peek, force: true)), .nothing)
        XCTAssertEqual(touch.handle(.gesture(.pop, force: true)), .fire(popClick))
        XCTAssertEqual(touch.handle(.gesture(.dismiss, force: true)), .nothing)
        XCTAssertEqual(touch.handle(.ended), .nothing)
        XCTAssertEqual(touch, .idle)
    }
}
