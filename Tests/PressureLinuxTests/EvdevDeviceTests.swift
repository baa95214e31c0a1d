import Foundation
import Glibc
import XCTest

@testable import PressureLinux

/// Opening nodes that are not evdev devices (there are none on a build machine).
final class EvdevDeviceTests: XCTestCase {
    func testMissingNodeIsENOENTNamingThePath() {
        let path = "/nonexistent-\(getpid())/event3"
        XCTAssertThrowsError(try EvdevDevice(node: path)) { error in
            guard let e = error as? SystemError else { return XCTFail("\(error)") }
            XCTAssertEqual(e, SystemError(call: "open", subject: path, errno: ENOENT))
            XCTAssertTrue(e.description.hasPrefix(path + ": open: "), e.description)
        }
    }

    func testRegularFileIsNotAnEvdevDevice() throws {
        let path = NSTemporaryDirectory() + "pressured-not-evdev-\(getpid())"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(repeating: 0, count: 48)))
        defer { unlink(path) }
        let fdsBefore = try openDescriptors()
        XCTAssertThrowsError(try EvdevDevice(node: path)) { error in
            guard let e = error as? SystemError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.call, "libevdev_new_from_fd")
            XCTAssertEqual(e.subject, path)
            XCTAssertEqual(e.errno, ENOTTY)
            XCTAssertEqual(e.description, "\(path): libevdev_new_from_fd: Inappropriate ioctl for device")
        }
        XCTAssertEqual(try openDescriptors(), fdsBefore, "the descriptor is closed on failure")
    }

    func testCharacterDeviceThatIsNotEvdevFails() {
        XCTAssertThrowsError(try EvdevDevice(node: "/dev/null")) { error in
            guard let e = error as? SystemError else { return XCTFail("\(error)") }
            XCTAssertEqual(e.call, "libevdev_new_from_fd")
            XCTAssertTrue([ENOTTY, EINVAL].contains(e.errno), e.description)
        }
    }

    private func openDescriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }
}
