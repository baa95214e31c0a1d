import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// ``HapticCues``: a cue for each gesture with an effect, none with haptics or force off (long press
/// stays), and a pop that takes the place of its peek on the same frame.
final class HapticCuesTests: XCTestCase {
    let haptics = Configuration().haptics

    func event(_ g: GestureKind, contact: UInt64 = 1, ms: Int64) -> PressureEvent {
        PressureEvent(
            kind: .gesture(g), time: Timestamp(microseconds: ms * 1000), device: 1, contact: contact, x: 0, y: 0,
            force: 1, maximumPossibleForce: 4)
    }

    func cues(_ gestures: [(GestureKind, UInt64, Int64)], settings: GestureSettings = GestureSettings()) -> [String] {
        var out: [HapticPlay] = []
        for (g, contact, ms) in gestures {
            HapticCues.add(g, of: event(g, contact: contact, ms: ms), settings: settings, haptics: haptics, to: &out)
        }
        return out.map { "\($0.gesture.rawValue)@\($0.time.microseconds / 1000)#\($0.contact)" }
    }

    func testEachGestureWithAnEffectIsCued() {
        XCTAssertEqual(cues([(.peek, 1, 10), (.pop, 1, 20)]), ["peek@10#1", "pop@20#1"])
        XCTAssertEqual(cues([(.dismiss, 1, 10)]), [], "dismiss has no effect")
    }

    func testAPopOnItsPeeksFrameTakesItsPlace() {
        XCTAssertEqual(cues([(.peek, 1, 10), (.pop, 1, 10)]), ["pop@10#1"])
        XCTAssertEqual(cues([(.peek, 1, 10), (.pop, 2, 10)]), ["peek@10#1", "pop@10#2"], "another contact's pop")
    }

    func testNothingWithHapticsOffAndOnlyLongPressWithForceOff() {
        var off = GestureSettings()
        off.hapticsEnabled = false
        XCTAssertEqual(cues([(.peek, 1, 10), (.longPress, 2, 20)], settings: off), [])
        var noForce = GestureSettings()
        noForce.forceTouchEnabled = false
        XCTAssertEqual(cues([(.peek, 1, 10), (.longPress, 2, 20)], settings: noForce), ["longPress@20#2"])
    }
}
