@testable import PressureCore
@testable import PressureDeviceTools
@testable import PressureLinux
import XCTest

final class HapticsToolTests: XCTestCase {
    func testTheReportSaysWhatTheDeviceSupportsAndWhatEachGestureGets() throws {
        let port = ScriptedForceFeedback(bits: [HapticEffectKind.Bit.rumble], slots: 4)
        let d = try HapticDevice(port: port, settings: Configuration.parse("[haptics]\nLongPressEffect = off\n", file: "h").haptics)
        XCTAssertEqual(HapticsTool.report(d), """
            /dev/input/event9 "vibrator": rumble; 4 effects
              peek: rumble 0.40 12 ms
              pop: rumble 0.80 20 ms
              quickActions: rumble 0.60 15 ms
              longPress: off
            """)
    }

    func testBadUsageIsExitStatusTwo() {
        XCTAssertEqual(HapticsTool.main(["--gesture", "wiggle", "--play"]), 2)
        XCTAssertEqual(HapticsTool.main(["--config", "/nonexistent/h.conf"]), 1)
    }
}
