import CLibevdev
import Glibc
import XCTest

/// libevdev's messages about a device reach the shim's sink (`pressured_evdev_set_log_sink`), whatever
/// libevdev does with its user data pointer: reading a device that has no descriptor yet is such a message.
final class EvdevLogSinkTests: XCTestCase {
    nonisolated(unsafe) static var messages: [String] = []

    func testAMessageAboutADeviceReachesTheSink() throws {
        let dev = try XCTUnwrap(libevdev_new())
        defer { libevdev_free(dev) }
        Self.messages = []
        pressured_evdev_set_log_sink(dev, { _, _, message in
            if let message { EvdevLogSinkTests.messages.append(String(cString: message)) }
        }, LIBEVDEV_LOG_ERROR)
        var event = input_event()
        XCTAssertEqual(libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &event), -EBADF)
        XCTAssertEqual(Self.messages.count, 1, "\(Self.messages)")
        XCTAssertTrue(Self.messages.first?.contains("libevdev_set_fd") ?? false, "\(Self.messages)")
    }
}
