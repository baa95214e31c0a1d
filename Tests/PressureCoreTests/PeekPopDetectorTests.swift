import XCTest
@testable import PressureCore

/// Every row of the transition table in `docs/gestures.md`, by hand, with explicit timestamps and the edges
/// (`GestureTableDocTests` reads the table itself).
final class PeekPopDetectorTests: XCTestCase {
    /// Peek at raw 200, pop at raw 750, slop 10 units, quick actions after 100 units up, 500 ms hold.
    let t = GestureThresholds(
        peekRaw: 200, popRaw: 750, slopX: 10, slopY: 10, quickActionsTravel: 100,
        longPressDuration: .milliseconds(500), peekForce: 1.33, popForce: 5)

    func at(_ ms: Int64) -> Timestamp { Timestamp(microseconds: ms * 1000) }

    func detector(in state: PeekPopDetector.State) -> PeekPopDetector {
        var d = PeekPopDetector(downAt: at(0), x: 1000, y: 1000, thresholds: t)
        let frame = { (p: Int32, y: Int32) in PeekPopDetector.Input.frame(time: self.at(10), x: 1000, y: y, pressure: p) }
        switch state {
        case .possible: break
        case .tracking: _ = d.handle(.frame(time: at(10), x: 1100, y: 1000, pressure: 50), thresholds: t)
        case .longPressed: _ = d.handle(.timeout(at(500)), thresholds: t)
        case .peeking: _ = d.handle(frame(300, 1000), thresholds: t)
        case .quickActions:
            _ = d.handle(frame(300, 1000), thresholds: t)
            _ = d.handle(frame(300, 880), thresholds: t)
        case .popped: _ = d.handle(frame(800, 1000), thresholds: t)
        case .ended: _ = d.handle(.lift(at(20)), thresholds: t)
        }
        XCTAssertEqual(d.stateName, PeekPopDetector(state: state).stateName, "setup reached \(state)")
        return d
    }

    func check(
        _ from: PeekPopDetector.State, _ input: PeekPopDetector.Input, to expected: String,
        gestures: [GestureKind], timer: PeekPopDetector.TimerAction = .none, impossible: Bool = false,
        line: UInt = #line
    ) {
        var d = detector(in: from)
        let r = d.handle(input, thresholds: t)
        XCTAssertEqual(d.stateName, expected, line: line)
        XCTAssertEqual([r.first, r.second].compactMap { $0 }, gestures, line: line)
        XCTAssertEqual(r.timer, timer, line: line)
        XCTAssertEqual(r.impossible, impossible, line: line)
    }

    func frame(_ p: Int32, x: Int32 = 1000, y: Int32 = 1000, ms: Int64 = 30) -> PeekPopDetector.Input {
        .frame(time: at(ms), x: x, y: y, pressure: p)
    }

    let possible = PeekPopDetector.State.possible(originX: 1000, originY: 1000, deadline: Timestamp(microseconds: 500_000))

    func testPossible() {
        check(possible, frame(750), to: "popped", gestures: [.peek, .pop], timer: .cancel)
        check(possible, frame(200), to: "peeking", gestures: [.peek], timer: .cancel)
        check(possible, frame(100, x: 1011), to: "tracking", gestures: [], timer: .cancel)
        check(possible, frame(100, x: 1007, y: 1007), to: "possible", gestures: [])  // inside the slop circle
        check(possible, frame(199), to: "possible", gestures: [])
        check(possible, .timeout(at(500)), to: "longPressed", gestures: [.longPress])
        check(possible, .timeout(at(499)), to: "possible", gestures: [])
        check(possible, .lift(at(40)), to: "ended", gestures: [], timer: .cancel)
        check(possible, .cancel(at(40)), to: "ended", gestures: [], timer: .cancel)
    }

    func testTracking() {
        check(.tracking, frame(900), to: "popped", gestures: [.peek, .pop])
        check(.tracking, frame(250), to: "peeking", gestures: [.peek])
        check(.tracking, frame(10, x: 3000), to: "tracking", gestures: [])
        check(.tracking, .timeout(at(500)), to: "tracking", gestures: [])
        check(.tracking, .lift(at(40)), to: "ended", gestures: [])
        check(.tracking, .cancel(at(40)), to: "ended", gestures: [])
    }

    func testLongPressed() {
        check(.longPressed, frame(1000), to: "longPressed", gestures: [])
        check(.longPressed, .timeout(at(900)), to: "longPressed", gestures: [])
        check(.longPressed, .lift(at(900)), to: "ended", gestures: [])
        check(.longPressed, .cancel(at(900)), to: "ended", gestures: [])
    }

    func testPeeking() {
        check(.peeking(originY: 1000), frame(750), to: "popped", gestures: [.pop])
        check(.peeking(originY: 1000), frame(300, y: 900), to: "quickActions", gestures: [.quickActions])
        check(.peeking(originY: 1000), frame(300, y: 901), to: "peeking", gestures: [])
        check(.peeking(originY: 1000), frame(300, y: 1200), to: "peeking", gestures: [])  // down is not up
        check(.peeking(originY: 1000), frame(760, y: 800), to: "popped", gestures: [.pop])  // pop wins
        check(.peeking(originY: 1000), frame(0), to: "peeking", gestures: [])  // easing off keeps the peek
        check(.peeking(originY: 1000), .timeout(at(500)), to: "peeking", gestures: [])
        check(.peeking(originY: 1000), .lift(at(60)), to: "ended", gestures: [.dismiss])
        check(.peeking(originY: 1000), .cancel(at(60)), to: "ended", gestures: [.dismiss])
    }

    func testQuickActions() {
        check(.quickActions, frame(1000), to: "quickActions", gestures: [])
        check(.quickActions, .timeout(at(500)), to: "quickActions", gestures: [])
        check(.quickActions, .lift(at(90)), to: "ended", gestures: [.dismiss])
        check(.quickActions, .cancel(at(90)), to: "ended", gestures: [.dismiss])
    }

    func testPopped() {
        check(.popped, frame(1000), to: "popped", gestures: [])
        check(.popped, frame(0), to: "popped", gestures: [])
        check(.popped, .timeout(at(500)), to: "popped", gestures: [])
        check(.popped, .lift(at(90)), to: "ended", gestures: [])
        check(.popped, .cancel(at(90)), to: "ended", gestures: [])
    }

    func testEndedRejectsEverything() {
        for input in [frame(900), .timeout(at(500)), .lift(at(90)), .cancel(at(90))] {
            check(.ended, input, to: "ended", gestures: [], impossible: true)
        }
    }

    func testNoisyFingerOnThePeekThresholdPeeksOnce() {
        var d = PeekPopDetector(downAt: at(0), x: 0, y: 0, thresholds: t)
        var gestures: [GestureKind] = []
        for i in 0..<200 {
            let p: Int32 = i % 2 == 0 ? 195 : 205
            let r = d.handle(frame(p, x: 0, y: 0, ms: Int64(i)), thresholds: t)
            gestures += [r.first, r.second].compactMap { $0 }
        }
        let r = d.handle(.lift(at(300)), thresholds: t)
        gestures += [r.first, r.second].compactMap { $0 }
        XCTAssertEqual(gestures, [.peek, .dismiss])
    }

    func testForceOffNeverPeeksButLongPresses() {
        var off = t
        off.peekRaw = .max
        off.popRaw = .max
        var d = PeekPopDetector(downAt: at(0), x: 0, y: 0, thresholds: off)
        XCTAssertNil(d.handle(frame(Int32.max - 1, x: 0, y: 0), thresholds: off).first)
        XCTAssertEqual(d.handle(.timeout(at(500)), thresholds: off).first, .longPress)
    }
}

extension PeekPopDetector {
    /// A detector standing in `state`, only for naming states in tests.
    init(state: State) {
        self.init(downAt: Timestamp(microseconds: 0), x: 0, y: 0, thresholds: GestureThresholds(
            peekRaw: 1, popRaw: 2, slopX: 1, slopY: 1, quickActionsTravel: 1,
            longPressDuration: .milliseconds(1), peekForce: 1, popForce: 2))
        self.state = state
    }
}
