import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// What apps see of palms and hovering contacts (pressure 0..1000 with its prior used as it is: peek at 630,
/// pop at 900; long press after 500 ms).
final class TouchPipelinePalmTests: XCTestCase {
    func run(_ d: DeviceDescription, _ s: EventScript) throws -> [String] {
        var p = try TouchPipeline.test(d)
        var seen: [String] = []
        CaptureReplay.run(s.events, through: &p) { out, _ in
            for e in out {
                let what: String
                switch e.kind {
                case .gesture(let g): what = g.rawValue
                case .touch(let phase): what = phase.rawValue
                }
                seen.append("\(e.time.microseconds / 1000) \(what)#\(e.contact)")
            }
        }
        return seen
    }

    func testAPalmMidPeekDismissesOnceCancelsTheTouchAndNeverLongPresses() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 2000, y: 2000, p: 100) }
        s.frame(at: 50) { $0.slot(0, p: 700) }  // peek
        s.frame(at: 100) { $0.slot(0, p: 750, tool: MTTool.palm) }
        s.frame(at: 150) { $0.slot(0, p: 950) }  // would pop
        s.frame(at: 800) { $0.slot(0, p: 300, tool: MTTool.finger) }  // long after the long-press time
        s.frame(at: 1500) { $0.slot(0, id: -1) }
        XCTAssertEqual(try run(TestDevices.slottedWithPalms, s), [
            "0 began#1", "50 peek#1", "50 moved#1", "100 dismiss#1", "100 cancelled#1",
        ])
    }

    func testAPalmBySizeBeforeTheLongPressTimeCancelsTheTimer() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 2000, y: 2000, p: 50, major: 200) }
        s.frame(at: 300) { $0.slot(0, major: 800) }  // 40 mm: a palm
        s.frame(at: 1000) { $0.slot(0, id: -1) }
        XCTAssertEqual(try run(TestDevices.slottedWithPalms, s), ["0 began#1", "300 cancelled#1"])
        var p = try TouchPipeline.test(TestDevices.slottedWithPalms)
        CaptureReplay.run(s.events, through: &p) { _, _ in }
        XCTAssertNil(p.nextDeadline)
        XCTAssertEqual(p.liveContactCount, 0)
        XCTAssertEqual(p.tracker.diagnostics.palmsBySize, 1)
    }

    func testAPalmFromTheStartIsNeverSeenByApps() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 2000, y: 2000, p: 900, tool: MTTool.palm) }
        s.frame(at: 900) { $0.slot(0, p: 950) }
        s.frame(at: 1000) { $0.slot(0, id: -1) }
        XCTAssertEqual(try run(TestDevices.slottedWithPalms, s), [])
    }

    func testAHoveringFingerLongPressesFromWhenItLands() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 1, x: 2000, y: 2000, p: 0, distance: 1) }
        s.frame(at: 400) { $0.slot(0, p: 50, distance: 0) }
        s.frame(at: 1000) { $0.slot(0, id: -1) }
        XCTAssertEqual(try run(TestDevices.slottedHovering, s), ["400 began#1", "900 longPress#1", "1000 ended#1"])
    }
}
