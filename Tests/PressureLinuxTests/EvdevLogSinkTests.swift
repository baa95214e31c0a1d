import CLibevdev
import Glibc
import XCTest

/// libevdev's messages about a device reach the shim's sink (`pressured_evdev_set_log_sink`), whatever
/// libevdev does with its user data pointer: reading a device that has no descriptor yet is such a message.
final class EvdevLogSinkTests: XCTestCase {
    nonisolated(unsafe) static var messages: [String] = []

    private func setSink(_ dev: OpaquePointer) {
        Self.messages = []
        pressured_evdev_set_log_sink(dev, { _, _, message in
            if let message { EvdevLogSinkTests.messages.append(String(cString: message)) }
        }, LIBEVDEV_LOG_ERROR)
    }

    private func assertOneMessageAboutSetFD(_ dev: OpaquePointer, file: StaticString = #filePath, line: UInt = #line) {
        var event = input_event()
        XCTAssertEqual(libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &event), -EBADF, file: file, line: line)
        XCTAssertEqual(Self.messages.count, 1, "\(Self.messages)", file: file, line: line)
        XCTAssertTrue(Self.messages.first?.contains("libevdev_set_fd") ?? false, "\(Self.messages)", file: file, line: line)
    }

    func testAMessageAboutADeviceReachesTheSink() throws {
        let dev = try XCTUnwrap(libevdev_new())
        defer { libevdev_free(dev) }
        setSink(dev)
        assertOneMessageAboutSetFD(dev)
    }

    /// libevdev_set_fd resets the device (here after failing on a node that is not evdev, as it does at its
    /// start on every call): its log function stays, its user data pointer does not. The daemon sets the sink
    /// before the fd, so its messages come after such a reset.
    func testTheSinkOutlivesLibevdevSetFDsReset() throws {
        let dev = try XCTUnwrap(libevdev_new())
        defer { libevdev_free(dev) }
        setSink(dev)
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }
        XCTAssertLessThan(libevdev_set_fd(dev, fd), 0)
        XCTAssertEqual(Self.messages, [])
        assertOneMessageAboutSetFD(dev)
    }
}
