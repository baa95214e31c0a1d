import Glibc
import XCTest

@testable import PressureLinux

/// What filter mode logs of a frame its clone did not take whole (the writing itself needs uinput:
/// `tools/vmtest 24` and `26` write clones).
final class TouchCloneWriteTests: XCTestCase {
    func testAShortWriteSaysHowMuchOfTheFrameWent() {
        XCTAssertEqual("\(TouchClone.WriteFailure.short(written: 48, meant: 72))",
                       "wrote 48 of 72 bytes, the rest of the frame lost")
    }

    func testAFailedWriteSaysWhy() {
        let failure = TouchClone.WriteFailure.failed(SystemError(call: "write", subject: "/dev/input/event5", errno: ENODEV))
        XCTAssertEqual("\(failure)", String(cString: strerror(ENODEV)))
    }
}
