
import Foundation
@testable import PressureCapture
@testable import PressureCore
import XCTest

final class LibinputRecordReaderTests: LibinputRecordTestCase {
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
}
