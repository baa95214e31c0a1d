
import DeviceTestSupport
import Foundation
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// What the `libinput record` reader's tests share: the fixture, reading, and the assertions on errors.
/// It has no tests of its own; `LibinputRecordReaderTests` and `LibinputRecordReaderErrorTests` derive from it.
class LibinputRecordTestCase: XCTestCase {
    func fixtureBytes() throws -> [UInt8] {
        try FixtureFiles.bytes(FixtureFiles.fixtures.appendingPathComponent("elan-two-devices.yml"))
    }

    func read(_ bytes: [UInt8], device: Int? = nil) throws(CaptureError) -> Capture {
        try LibinputRecordReader.read(bytes, file: "test.yml", deviceIndex: device)
    }

    func read(_ text: String, device: Int? = nil) throws(CaptureError) -> Capture {
        try read(Array(text.utf8), device: device)
    }

    /// Asserts that reading fails with exactly this reason at exactly this line.
    func assertError(
        _ text: String, device: Int? = nil, line: Int, _ reason: CaptureError.Reason,
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        assertError(Array(text.utf8), device: device, line: line, reason, file: file, sourceLine: sourceLine)
    }

    func assertError(
        _ bytes: [UInt8], device: Int? = nil, line: Int, _ reason: CaptureError.Reason,
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        do {
            let capture = try read(bytes, device: device)
            XCTFail(
                "expected \(reason) at line \(line), got a capture of \(capture.device.name)", file: file,
                line: sourceLine)
        } catch {
            XCTAssertEqual(error.file, "test.yml", file: file, line: sourceLine)
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: sourceLine)
            XCTAssertEqual(error.reason, reason, "\(error)", file: file, line: sourceLine)
        }
    }

    /// Asserts a `.malformedLine` at `line`, whatever its message.
    func assertMalformed(
        _ text: String, line: Int, file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        assertFailure(Array(text.utf8), at: line, "malformedLine", file: file, sourceLine: sourceLine) {
            if case .malformedLine = $0 { return true }
            return false
        }
    }

    /// Asserts a `.truncated` at `line`.
    func assertTruncated(
        _ bytes: [UInt8], line: Int, file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        assertFailure(bytes, at: line, "truncated", file: file, sourceLine: sourceLine) {
            if case .truncated = $0 { return true }
            return false
        }
    }

    /// Asserts that reading `bytes` fails at `line` with a reason `kind` accepts (`name` for messages).
    private func assertFailure(
        _ bytes: [UInt8], at line: Int, _ name: String, file: StaticString, sourceLine: UInt,
        kind: (CaptureError.Reason) -> Bool
    ) {
        do {
            _ = try read(bytes)
            XCTFail("expected \(name) at line \(line)", file: file, line: sourceLine)
        } catch {
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: sourceLine)
            XCTAssertTrue(kind(error.reason), "expected \(name), got \(error)", file: file, line: sourceLine)
        }
    }

    /// A one-device touchscreen record; `events` is spliced in after `events:` (line 14 is the first
    /// line of `events`).
    func touchRecord(events: String) -> String {
        """
        version: 1
        ndevices: 1
        devices:
        - node: /dev/input/event5
          evdev:
            name: "Touch"
            id: [24, 1267, 673, 256]
            codes:
              0: [0]
              3: [53, 54, 57, 58]
            absinfo:
              58: [0, 255, 0, 0, 0]
          events:
        \(events)
        """
    }
}
