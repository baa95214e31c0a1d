import Foundation
import XCTest

@testable import PressureCore

final class LibinputRecordReaderTests: XCTestCase {
    // MARK: Helpers

    private func fixtureBytes() throws -> [UInt8] {
        try FixtureFiles.bytes(FixtureFiles.fixtures.appendingPathComponent("elan-two-devices.yml"))
    }

    private func read(_ bytes: [UInt8], device: Int? = nil) throws(CaptureError) -> Capture {
        try LibinputRecordReader.read(bytes, file: "test.yml", deviceIndex: device)
    }

    private func read(_ text: String, device: Int? = nil) throws(CaptureError) -> Capture {
        try read(Array(text.utf8), device: device)
    }

    /// Asserts that reading fails with exactly this reason at exactly this line.
    private func assertError(
        _ text: String, device: Int? = nil, line: Int, _ reason: CaptureError.Reason,
        file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        assertError(Array(text.utf8), device: device, line: line, reason, file: file, sourceLine: sourceLine)
    }

    private func assertError(
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
    private func assertMalformed(
        _ text: String, line: Int, file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        do {
            _ = try read(text)
            XCTFail("expected a malformed line \(line)", file: file, line: sourceLine)
        } catch {
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: sourceLine)
            guard case .malformedLine = error.reason else {
                return XCTFail("expected malformedLine, got \(error)", file: file, line: sourceLine)
            }
        }
    }

    /// Asserts a `.truncated` at `line`.
    private func assertTruncated(
        _ bytes: [UInt8], line: Int, file: StaticString = #filePath, sourceLine: UInt = #line
    ) {
        do {
            _ = try read(bytes)
            XCTFail("expected a truncated file at line \(line)", file: file, line: sourceLine)
        } catch {
            XCTAssertEqual(error.line, line, "\(error)", file: file, line: sourceLine)
            guard case .truncated = error.reason else {
                return XCTFail("expected truncated, got \(error)", file: file, line: sourceLine)
            }
        }
    }

    /// A one-device touchscreen record; `events` is spliced in after `events:` (line 14 is the first
    /// line of `events`).
    private func touchRecord(events: String) -> String {
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

    // MARK: The fixture

    func testDefaultDevicePicksTheTouchscreen() throws {
        let capture = try read(try fixtureBytes())
        XCTAssertEqual(capture.source, "test.yml")
        let device = capture.device
        XCTAssertEqual(device.name, "ELAN Touchscreen")
        XCTAssertEqual(device.identity, DeviceIdentity(bus: 0x18, vendor: 0x4f3, product: 0x2a1, version: 0x100))
        XCTAssertEqual(device.properties, [InputProperty.direct])
        XCTAssertEqual(device.codes[EventType.syn], Set(0...15))
        XCTAssertEqual(device.codes[EventType.key], [KeyCode.btnTouch])
        XCTAssertEqual(device.codes[EventType.abs], [0, 1, 47, 53, 54, 57, 58])
        XCTAssertEqual(device.codes.count, 3)
        XCTAssertEqual(device.absInfo.count, 7)
        XCTAssertEqual(device.axis(AbsCode.mtPressure), AbsInfo(minimum: 0, maximum: 255))
        XCTAssertEqual(device.axis(AbsCode.x), AbsInfo(minimum: 0, maximum: 2940, resolution: 10))
        XCTAssertEqual(device.axis(AbsCode.mtTrackingID), AbsInfo(minimum: 0, maximum: 65535))
        XCTAssertEqual(device.axis(AbsCode.mtSlot), AbsInfo(minimum: 0, maximum: 9))

        let events = capture.events
        XCTAssertEqual(events.count, 21)
        XCTAssertEqual(
            events.first,
            InputEvent(time: Timestamp(microseconds: 0), type: EventType.abs, code: AbsCode.mtTrackingID, value: 12))
        XCTAssertEqual(
            events.last,
            InputEvent(
                time: Timestamp(seconds: 0, microseconds: 50612), type: EventType.syn, code: SynCode.report, value: 0))
        XCTAssertEqual(events[events.count - 3].value, -1)
        XCTAssertEqual(events[events.count - 3].code, AbsCode.mtTrackingID)
        let pressures = events.filter { $0.type == EventType.abs && $0.code == AbsCode.mtPressure }
        XCTAssertEqual(pressures.map(\.value), [10, 60, 120, 190, 240])
        XCTAssertEqual(
            pressures.map(\.time.microseconds), [0, 10123, 20245, 30367, 40490])
        XCTAssertEqual(events.filter { $0.type == EventType.syn }.count, 6)
        // In order, and every frame ends in a SYN_REPORT.
        XCTAssertEqual(events.map(\.time), events.map(\.time).sorted())
    }

    func testDeviceZeroIsTheKeyboard() throws {
        let capture = try read(try fixtureBytes(), device: 0)
        XCTAssertEqual(capture.device.name, "AT Translated Set 2 keyboard")
        XCTAssertEqual(capture.device.identity, DeviceIdentity(bus: 17, vendor: 1, product: 1, version: 43841))
        XCTAssertEqual(capture.device.properties, [])
        XCTAssertEqual(capture.device.absInfo, [:])
        XCTAssertEqual(capture.device.codes[EventType.key]?.count, 30)
        XCTAssertEqual(capture.device.codes[17], [0, 1, 2])
        XCTAssertFalse(LibinputRecordReader.isTouchDevice(capture.device))
        XCTAssertEqual(capture.events.count, 6)
        XCTAssertEqual(
            capture.events[1],
            InputEvent(time: Timestamp(microseconds: 1_200_000), type: EventType.key, code: 30, value: 1))
        XCTAssertEqual(capture.events.last?.time, Timestamp(seconds: 1, microseconds: 280_000))
    }

    func testDeviceOneIsTheTouchscreen() throws {
        let capture = try read(try fixtureBytes(), device: 1)
        XCTAssertEqual(capture.device.name, "ELAN Touchscreen")
        XCTAssertEqual(capture.events.count, 21)
    }

    func testDeviceOutOfRange() throws {
        let bytes = try fixtureBytes()
        assertError(bytes, device: 5, line: 0, .noSuchDevice(index: 5, count: 2))
        assertError(bytes, device: 2, line: 0, .noSuchDevice(index: 2, count: 2))
        assertError(bytes, device: -1, line: 0, .noSuchDevice(index: -1, count: 2))
    }

    func testLooksLikeRecord() throws {
        XCTAssertTrue(LibinputRecordReader.looksLikeRecord(try fixtureBytes()))
        XCTAssertTrue(LibinputRecordReader.looksLikeRecord(Array("\n# hi\nversion: 2\n".utf8)))
        XCTAssertTrue(LibinputRecordReader.looksLikeRecord(Array("version: 1".utf8)))
        XCTAssertFalse(LibinputRecordReader.looksLikeRecord(Array("# EVEMU 1.3\nN: Foo\n".utf8)))
        XCTAssertFalse(LibinputRecordReader.looksLikeRecord(Array("  version: 1\n".utf8)))
        XCTAssertFalse(LibinputRecordReader.looksLikeRecord(Array("version:\n".utf8)))
        XCTAssertFalse(LibinputRecordReader.looksLikeRecord([]))
        XCTAssertFalse(LibinputRecordReader.looksLikeRecord([0x00, 0xff, 0xfe, 0x0a, 0x80]))
    }

    // MARK: Accepted variations

    func testMinimalSingleTouchDeviceWithoutEvents() throws {
        // No ndevices, no absinfo, no properties, no events; ABS_X with BTN_TOUCH counts as touch.
        let capture = try read(
            """
            version: 1
            devices:
            - node: /dev/input/event9
              evdev:
                name: Plain Name
                id: [3, 1, 2, 3]
                codes:
                  1: [330]
                  3: [0, 1]
            """)
        XCTAssertEqual(capture.device.name, "Plain Name")
        XCTAssertEqual(capture.device.codes, [1: [330], 3: [0, 1]])
        XCTAssertEqual(capture.device.absInfo, [:])
        XCTAssertEqual(capture.device.properties, [])
        XCTAssertEqual(capture.events, [])
    }

    func testEmptyListsAndUnknownKeysAnywhere() throws {
        let capture = try read(
            """
            version: 1 # the format
            future_top:
              nested:
              - a: 1
                b: [1, 2]
            devices:   # one device
              - node: "/dev/input/event5"
                future_device: {a: b}
                evdev:
                  name: "Quote \\"Q\\" Touch"   # escaped quotes
                  id: [24, 1, 2, 3]
                  future_evdev:
                  - 1
                  - 2
                  codes:
                    0: []
                    3: [53, 54]
                  absinfo: {}
                  properties: []
                hid: []
                udev:
                  properties:
                events:
                  - future_frame:
                      x: 1
                  - evdev:
                      - [0, 1, 3, 53, 7]   # comment
                      - [0, 1, 0, 0, 0]
                    future: [1]
                    libinput:
                      - {time: 0.000001, type: TOUCH_DOWN}
                  - evdev: []
            future_tail: 1
            """)
        XCTAssertEqual(capture.device.name, "Quote \"Q\" Touch")
        XCTAssertEqual(capture.device.codes, [0: [], 3: [53, 54]])
        XCTAssertEqual(
            capture.events,
            [
                InputEvent(time: Timestamp(microseconds: 1), type: 3, code: 53, value: 7),
                InputEvent(time: Timestamp(microseconds: 1), type: 0, code: 0, value: 0),
            ])
    }

    func testNameWithBareQuotesAsLibinputWritesIt() throws {
        let capture = try read(
            """
            version: 1
            devices:
            - evdev:
                name: "12" Display"
                codes:
                  3: [53]
            """)
        XCTAssertEqual(capture.device.name, "12\" Display")
    }

    func testCRLFAndByteOrderMark() throws {
        let text = touchRecord(events: "  - evdev:\n    - [  2,  5,   3,  58,  99]\n")
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF]
        bytes += Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let capture = try read(bytes)
        XCTAssertEqual(
            capture.events, [InputEvent(time: Timestamp(microseconds: 2_000_005), type: 3, code: 58, value: 99)])
    }

    func testEventExtremes() throws {
        let capture = try read(
            touchRecord(
                events: """
                      - evdev:
                        - [4294967295, 999999, 65535, 65535, -2147483648]
                        - [0, 0, 0, 0, 2147483647]
                    """))
        XCTAssertEqual(capture.events.count, 2)
        XCTAssertEqual(capture.events[0].time, Timestamp(seconds: 4_294_967_295, microseconds: 999_999))
        XCTAssertEqual(capture.events[0].type, 65535)
        XCTAssertEqual(capture.events[0].value, Int32.min)
        XCTAssertEqual(capture.events[1].value, Int32.max)
    }

    // MARK: Errors, each at its line

    func testUnsupportedVersion() {
        assertError("# recorded yesterday\n\nversion: 2\nndevices: 1\ndevices:\n", line: 3, .unsupportedVersion("2"))
        assertError("version: \"1.1\"\n", line: 1, .unsupportedVersion("1.1"))
    }

    func testNotARecord() {
        assertError("# EVEMU 1.3\nN: Foo\n", line: 2, .unknownFormat)
        assertError("\n\nndevices: 1\nversion: 1\n", line: 3, .unknownFormat)
    }

    func testMalformedEventLines() {
        // touchRecord's events start at line 14; the frame's first event is line 15.
        let frame = "  - evdev:\n    - [0, 0, 3, 57, 12]\n"
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 1, 2]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 70000, 57, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 65536, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 2147483648]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, -2147483649]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 99999999999999999999999]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 1000000, 3, 57, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [-1, 0, 3, 57, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, x57, 1]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 1] junk\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - {time: 0}\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "    - [0, 0, 3, 57, 1\n    - [0, 0, 0, 0, 0]\n"), line: 16)
        assertMalformed(touchRecord(events: frame + "      [0, 0, 3, 57, 1]\n"), line: 16)
        // A good line after the bad one does not change where the error is.
        assertMalformed(touchRecord(events: frame + frame + "    - [0, 0, 3]\n" + frame), line: 18)
    }

    func testMalformedDescriptionLines() {
        func record(_ evdev: String) -> String {
            "version: 1\ndevices:\n- evdev:\n    name: \"T\"\n\(evdev)\n"
        }
        // Line 5 is the first line of `evdev`.
        assertMalformed(record("    id: [1, 2, 3]"), line: 5)
        assertMalformed(record("    id: [1, 2, 3, 65536]"), line: 5)
        assertMalformed(record("    id: 1, 2, 3, 4"), line: 5)
        assertMalformed(record("    codes:\n      3: [0, 1]\n      x: [2]"), line: 7)
        assertMalformed(record("    codes:\n      3 [0, 1]"), line: 6)
        assertMalformed(record("    codes:\n      3: [0, 70000]"), line: 6)
        assertMalformed(record("    codes:\n      3: [0, 1]\n        4: [1]"), line: 7)
        assertMalformed(record("    codes:\n      3: [53]\n    absinfo:\n      53: [0, 100, 0, 0]"), line: 8)
        assertMalformed(record("    codes:\n      3: [53]\n    absinfo:\n      53: [0, 4294967296, 0, 0, 0]"), line: 8)
        assertMalformed(record("    codes:\n      3: [53]\n    absinfo:\n      53: 0, 100"), line: 8)
        assertMalformed(record("    codes:\n      3: [53]\n    properties: [a]"), line: 7)
    }

    func testDeviceCountMismatch() throws {
        var text = String(decoding: try fixtureBytes(), as: UTF8.self)
        text = text.replacingOccurrences(of: "ndevices: 2", with: "ndevices: 3")
        assertMalformed(text, line: 5)
    }

    func testNoTouchDevice() {
        assertError(
            """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "Keyboard"
                codes:
                  1: [30]
              events:
              - evdev:
                - [0, 0, 1, 30, 1]
            """, line: 0, .noTouchDevice)
        assertError("version: 1\ndevices: []\n", line: 0, .noTouchDevice)
        assertError("version: 1\ndevices: []\n", device: 0, line: 0, .noSuchDevice(index: 0, count: 0))
    }

    func testDeviceWithoutDescription() {
        assertMalformed("version: 1\ndevices:\n- node: /dev/input/event1\n  events:\n- evdev:\n    name: x\n", line: 3)
    }

    func testEmptyFile() {
        assertError([UInt8](), line: 0, .truncated("the file is empty"))
        assertError("\n  \n# only a comment\n\r\n", line: 0, .truncated("the file is empty"))
    }

    func testTruncatedFiles() throws {
        // Cut in the middle of an event line: the line with no newline is where the file ends.
        let fixture = try fixtureBytes()
        let text = String(decoding: fixture, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let cutLine = try XCTUnwrap(lines.firstIndex { $0.contains("[  0,  30367,   3,  58,") }) + 1
        let cutAt = try XCTUnwrap(text.range(of: "[  0,  30367,   3,  58,"))
        assertTruncated(Array(text[..<cutAt.upperBound].utf8), line: cutLine)

        // Ends before the devices list, after `devices:`, inside a device, after `- evdev:`.
        assertTruncated(Array("version: 1\nndevices: 1\nlibinput:\n  version: \"1.22.0\"\n".utf8), line: 4)
        assertTruncated(Array("version: 1\nndevices: 1\ndevices:\n".utf8), line: 3)
        assertTruncated(
            Array("version: 1\ndevices:\n- node: /dev/input/event5\n  evdev:\n    name: \"T\"\n".utf8), line: 5)
        assertTruncated(Array("version: 1\ndevices:\n- node: /dev/input/event5\n  evdev:\n".utf8), line: 4)
        assertTruncated(Array(touchRecord(events: "  - evdev:\n").utf8), line: 14)
        assertTruncated(Array(touchRecord(events: "  - evdev:\n# a comment\n").utf8), line: 15)
        assertTruncated(Array("version: 1\ndevices:\n- evdev:\n    name: \"Touch".utf8), line: 4)
        assertTruncated(Array("version: 1\ndevices:\n- evdev:\n    name: T\n    codes:\n      3: [53, 5".utf8), line: 6)
    }

    func testEveryPrefixOfTheFixtureParsesOrThrows() throws {
        let fixture = try fixtureBytes()
        var parsed = 0
        for end in 0...fixture.count {
            let prefix = Array(fixture[..<end])
            if (try? read(prefix)) != nil { parsed += 1 }
            _ = LibinputRecordReader.looksLikeRecord(prefix)
        }
        XCTAssertGreaterThan(parsed, 0)  // prefixes that end after a complete touchscreen event line
    }

    func testGarbageNeverCrashes() throws {
        assertError([0x00, 0x00, 0x0a, 0xff], line: 1, .unknownFormat)
        assertError([0xc3, 0x28, 0x0a, 0xa0, 0xa1], line: 1, .unknownFormat)
        assertError("version: 1\n\u{0}\u{0}\n", line: 2, .malformedLine("expected a top-level `key: value`"))

        // Invalid UTF-8 inside a name is replaced, not trusted.
        var name = Array("version: 1\ndevices:\n- evdev:\n    name: \"".utf8)
        name += [0xff, 0xc3, 0x00, 0x80]
        name += Array("\"\n    codes:\n      3: [53]\n".utf8)
        XCTAssertEqual(try read(name).device.name.unicodeScalars.count, 4)

        // Deterministic mutations of the fixture: bytes replaced by hostile ones, lines duplicated.
        let fixture = try fixtureBytes()
        let hostile: [UInt8] = [
            0x00, 0x0a, 0x0d, 0x20, 0x09, 0x22, 0x23, 0x2d, 0x3a, 0x5b, 0x5d, 0x2c, 0x39, 0xff, 0x80,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        for _ in 0..<400 {
            var bytes = fixture
            for _ in 0..<(1 + next() % 8) {
                let at = next() % bytes.count
                bytes[at] = hostile[next() % hostile.count]
            }
            if next() % 4 == 0 {
                let from = next() % bytes.count
                let length = min(bytes.count - from, next() % 200)
                bytes.insert(contentsOf: bytes[from..<(from + length)], at: next() % bytes.count)
            }
            do {
                _ = try read(bytes, device: next() % 3 == 0 ? nil : next() % 3)
            } catch {
                XCTAssertEqual(error.file, "test.yml")
                XCTAssertGreaterThanOrEqual(error.line, 0)
            }
            _ = LibinputRecordReader.looksLikeRecord(bytes)
        }

        // Random bytes.
        for _ in 0..<200 {
            var bytes: [UInt8] = []
            for _ in 0..<(next() % 300) { bytes.append(UInt8(truncatingIfNeeded: next())) }
            _ = try? read(bytes)
            _ = try? read(Array("version: 1\ndevices:\n".utf8) + bytes)
            _ = LibinputRecordReader.looksLikeRecord(bytes)
        }
    }
}
