import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// evtest output: headers, events, wrapped lines, several sessions, header-less logs and their
/// descriptions, and the errors, each naming the file and line.
final class EvtestReaderTests: XCTestCase {
    func read(_ text: String, desc: DeviceDescription? = nil, device: Int? = nil) throws -> Capture {
        try CaptureReader.read(Array(text.utf8), file: "t.evtest.txt", description: desc, deviceIndex: device)
    }

    static let header = """
        Input driver version is 1.0.1
        Input device ID: bus 0x18 vendor 0x4f3 product 0x2a version 0x100
        Input device name: "Test Panel (evtest)"
        Supported events:
          Event type 0 (EV_SYN)
          Event type 1 (EV_KEY)
            Event code 330 (BTN_TOUCH)
            Event code 328 (?)
          Event type 3 (EV_ABS)
            Event code 47 (ABS_MT_SLOT)
              Value      0
              Min        0
              Max        9
            Event code 52 (ABS_MT_ORIENTATION)
              Value      0
              Min     -127
              Max      127
            Event code 53 (ABS_MT_POSITION_X)
              Value    290
              Min        0
              Max     1279
              Fuzz       4
              Flat       2
              Resolution      12
            Event code 54 (ABS_MT_POSITION_Y)
              Value      0
              Min        0
              Max     2111
            Event code 57 (ABS_MT_TRACKING_ID)
              Value      0
              Min        0
              Max    65535
            Event code 58 (ABS_MT_PRESSURE)
              Value      0
              Min        0
              Max      255
          Event type 4 (EV_MSC)
            Event code 4 (MSC_SCAN)
          Event type 5 (EV_SW)
            Event code 0 (SW_LID) state 0
        Key repeat handling:
          Repeat type 20 (EV_REP)
            Repeat code 0 (REP_DELAY)
              Value    250
        Properties:
          Property type 1 (INPUT_PROP_DIRECT)
        Testing ... (interrupt to exit)

        """

    func testTheHeaderDescribesTheDeviceAndEveryEventKindReads() throws {
        let c = try read(Self.header + """
            Event: time 10.000001, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 16
            Event: time 10.000001, type 3 (EV_ABS), code 52 (?), value -5
            Event: time 10.000001, type 4 (EV_MSC), code 4 (MSC_SCAN), value 90001
            Event: time 10.000001, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 1
            Event: time 10.000001, -------------- SYN_REPORT ------------
            Event: time 10.000002, ++++++++++++++ SYN_MT_REPORT ++++++++++++
            Event: time 10.000003, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<
            Event: time 10.5, -------------- Report Sync -----------
            Event: time 9.000000, type 3 (Absolute), code 57 (Tracking), value -1\r
            Event: time 9.000000, -------------- SYN_CONFIG ------------
            """)
        XCTAssertEqual(c.device.name, "Test Panel (evtest)")
        XCTAssertEqual(c.device.identity, DeviceIdentity(bus: 0x18, vendor: 0x4f3, product: 0x2a, version: 0x100))
        XCTAssertEqual(c.device.properties, [InputProperty.direct])
        XCTAssertEqual(c.device.codes[EventType.key], [330, 328])
        XCTAssertEqual(c.device.codes[EventType.abs], [47, 52, 53, 54, 57, 58])
        XCTAssertEqual(c.device.codes[0x05], [0])
        XCTAssertNil(c.device.codes[EventType.syn])
        XCTAssertEqual(c.device.axis(AbsCode.mtPositionX),
                       AbsInfo(minimum: 0, maximum: 1279, fuzz: 4, flat: 2, resolution: 12))
        XCTAssertEqual(c.device.axis(0x34), AbsInfo(minimum: -127, maximum: 127))
        XCTAssertEqual(c.device.axis(AbsCode.mtPressure), AbsInfo(minimum: 0, maximum: 255))
        XCTAssertEqual(c.assumptions, [])
        XCTAssertEqual(c.events, [
            event(10_000_001, 3, 57, 16), event(10_000_001, 3, 52, -5), event(10_000_001, 4, 4, 0x90001),
            event(10_000_001, 1, 330, 1), event(10_000_001, 0, 0, 0), event(10_000_002, 0, 2, 0),
            event(10_000_003, 0, 3, 0), event(10_500_000, 0, 0, 0),
            // Times that go back are kept as they are, as the evemu reader keeps them.
            event(9_000_000, 3, 57, -1), event(9_000_000, 0, 1, 0),
        ])
        XCTAssertEqual(try TouchDevice(c.device).contactProtocol, .slotted(slots: 10))
    }

    func testAMailClientsWrapsAreRejoined() throws {
        let whole = """
            Event: time 1587922487.077439, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 64
            Event: time 1587922487.077439, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 1
            Event: time 1587922487.077439, -------------- SYN_REPORT ------------
            """
        let wrapped = """
            Event: time 1587922487.077439, type 3 (EV_ABS), code 57
            (ABS_MT_TRACKING_ID), value 64
            Event: time 1587922487.077439, type 1 (EV_KEY), code 330 (BTN_TOUCH),
              value 1
            Event: time 1587922487.077439, -------------- SYN_REPORT ------------
            """
        XCTAssertEqual(try read(Self.header + wrapped).events, try read(Self.header + whole).events)
        XCTAssertEqual(try read(Self.header + wrapped).events.count, 3)
    }

    func testAWrapThatIsNotClearlyOneIsAnErrorAtItsLine() {
        let headerLines = Self.header.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        for (text, offset, words) in [
            ("Event: time 1.0, type 3 (EV_ABS), code 57\nvalue 3\n", 1, "cut short"),
            ("Event: time 1.0, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID),\n(ABS_X)\n", 1, "cut short"),
            ("Event: time 1.0, type 3 (EV_ABS), code 57\n(ABS_MT_TRACKING_ID), value x\n", 1, "even rejoined"),
            ("Event: time 1.0, type 3 (EV_ABS), code 57", 1, "cut short"),
        ] {
            XCTAssertThrowsError(try read(Self.header + text)) { e in
                let d = "\(e)"
                XCTAssertTrue(d.hasPrefix("t.evtest.txt:\(headerLines + offset): "), d)
                XCTAssertTrue(d.contains(words), d)
            }
        }
    }

    func testSessionsAreDevicesAndProseBetweenThemIsSkipped() throws {
        let text = """
            Hi all, before the patch:

            \(Self.header)Event: time 1.000000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 1
            Event: time 1.000000, -------------- SYN_REPORT ------------

            ==== and after it (works) ====
            Input driver version is 1.0.1
            Input device name: "Second"
            Supported events:
              Event type 3 (EV_ABS)
                Event code 0 (ABS_X)
                  Min 0
                  Max 100
                Event code 1 (ABS_Y)
                  Min 0
                  Max 100
            Event: time 2.000000, type 3 (EV_ABS), code 0 (ABS_X), value 7
            Event: time 2.000000, -------------- SYN_REPORT ------------
            Thanks, Someone
            """
        let first = try read(text)
        XCTAssertEqual(first.device.name, "Test Panel (evtest)")
        XCTAssertEqual(first.events, [event(1_000_000, 3, 57, 1), event(1_000_000, 0, 0, 0)])
        let second = try read(text, device: 1)
        XCTAssertEqual(second.device.name, "Second")
        XCTAssertEqual(second.device.axis(AbsCode.x), AbsInfo(minimum: 0, maximum: 100))
        XCTAssertEqual(second.events, [event(2_000_000, 3, 0, 7), event(2_000_000, 0, 0, 0)])
        XCTAssertThrowsError(try read(text, device: 2)) { e in
            XCTAssertEqual((e as? CaptureError)?.reason, .noSuchDevice(index: 2, count: 2))
        }
    }

    func testTheDefaultDeviceIsTheFirstTouchDeviceWithEvents() throws {
        let keyboard = """
            Input driver version is 1.0.1
            Input device name: "Keys"
            Supported events:
              Event type 1 (EV_KEY)
                Event code 114 (KEY_VOLUMEDOWN)
            Event: time 1.000000, type 1 (EV_KEY), code 114 (KEY_VOLUMEDOWN), value 1

            """
        let emptyScreen = Self.header.replacingOccurrences(of: "Test Panel", with: "Idle Panel")
        let c = try read(keyboard + emptyScreen + Self.header + "Event: time 3.0, type 3 (EV_ABS), code 58 (ABS_MT_PRESSURE), value 9\n")
        XCTAssertEqual(c.device.name, "Test Panel (evtest)")
        XCTAssertEqual(c.events, [event(3_000_000, 3, 58, 9)])
        XCTAssertEqual(try read(keyboard + emptyScreen).device.name, "Idle Panel (evtest)")
    }

    static let events = """
        Event: time 5.000000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 3
        Event: time 5.000000, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 400
        Event: time 5.000000, type 3 (EV_ABS), code 54 (ABS_MT_POSITION_Y), value 300
        Event: time 5.000000, type 3 (EV_ABS), code 58 (ABS_MT_PRESSURE), value 40
        Event: time 5.000000, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 1
        Event: time 5.000000, type 1 (EV_KEY), code 325 (BTN_TOOL_FINGER), value 1
        Event: time 5.000000, -------------- SYN_REPORT ------------
        Event: time 5.010000, type 3 (EV_ABS), code 47 (ABS_MT_SLOT), value 1
        Event: time 5.010000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 4
        Event: time 5.010000, -------------- SYN_REPORT ------------

        """

    func testAHeaderlessLogTakesItsDescriptionFromDescCompletedFromItsEvents() throws {
        let axesOnly = try Array("""
            A: 2f 0 14 0 0 0
            A: 35 0 1280 0 0 12
            A: 36 0 680 0 0 10
            A: 39 0 65535 0 0 0
            A: 3a 0 255 0 0 0

            """.utf8).withUnsafeBufferPointer { try EvemuReader.readDescription($0, file: "axes.desc") }
        let c = try read(Self.events, desc: axesOnly)
        XCTAssertEqual(c.device.name, "evtest log t")
        XCTAssertEqual(c.device.axis(AbsCode.mtPositionX), AbsInfo(minimum: 0, maximum: 1280, resolution: 12))
        XCTAssertEqual(c.device.codes[EventType.key], [KeyCode.btnToolFinger, KeyCode.btnTouch])
        XCTAssertEqual(c.assumptions, ["the description declares no BTN_TOOL_FINGER, BTN_TOUCH: taken from the events"])
        XCTAssertEqual(try TouchDevice(c.device).kind, .touchpad)
        XCTAssertEqual(c.events.count, 10)

        var full = axesOnly
        full.name = "link-touch-device"
        full.codes[EventType.key] = [KeyCode.btnToolFinger, KeyCode.btnTouch]
        full.absInfo[AbsCode.mtPositionX] = nil
        let given = try read(Self.events, desc: full)
        XCTAssertEqual(given.device.name, "link-touch-device")
        XCTAssertEqual(given.assumptions, ["axes in the events that the description does not declare, ignored: ABS_MT_POSITION_X"])
        // A header in the file gives way to --desc, as with evemu.
        XCTAssertEqual(try read(Self.header + Self.events, desc: full).device.name, "link-touch-device")
    }

    func testAHeaderlessLogWithoutDescSaysWhatItAssumed() throws {
        let c = try read(Self.events)
        XCTAssertEqual(c.device.name, "evtest log t")
        XCTAssertEqual(c.assumptions, [
            "no device description in the file (give one with --desc FILE): ABS_MT_PRESSURE 0..255, ABS_MT_TRACKING_ID 0..65535 assumed; ABS_MT_POSITION_X 0..400, ABS_MT_POSITION_Y 0..300, ABS_MT_SLOT 0..1 from the values seen",
            "taken as a touchpad (BTN_TOOL_FINGER seen): INPUT_PROP_POINTER assumed",
        ])
        XCTAssertEqual(try TouchDevice(c.device).contactProtocol, .slotted(slots: 2))
        XCTAssertEqual(try TouchDevice(c.device).kind, .touchpad)
    }

    func testMalformedLinesNameTheFileAndLine() {
        for (text, line, words) in [
            ("Event: time x, type 3 (EV_ABS), code 0 (ABS_X), value 1\n", 1, "expected an event"),
            ("Event: time 1.0, type (EV_ABS), code 0 (ABS_X), value 1\n", 1, "expected `type"),
            ("\n\nEvent: time 1.0, type 3 (EV_ABS), code 0 (ABS_X), value 1 or so\n", 3, "unexpected text"),
            ("Event: time 1.0, type 3 (EV_ABS), code 0 (ABS_X), value 99999999999\n", 1, "expected `value"),
            ("Event: time 1.0, type 3 (EV_ABS), code 0 (ABS_X) value 1\n", 1, "expected `(<name>),"),
            ("Event: time 1.0, -------------- SYN_SOMETHING ------------\n", 1, "frame line"),
            ("Event: time 1.0, type 4 (EV_MSC), code 4 (MSC_SCAN), value 9g\n", 1, "unexpected text"),
            ("Event: time 1.0, type 4 (EV_MSC), code 4 (MSC_SCAN), value -4\n", 1, "value <hex>"),
            ("Input device ID: bus 0x18 vendor zz\n", 1, "Input device ID: bus"),
            ("Input device name: \"x\"\n  Event code 3 (ABS_RX)\n", 2, "before any `Event type`"),
            ("Input device name: \"x\"\n  Event type 3 (EV_ABS)\n    Event code 0 (ABS_X)\n      Max   lots\n", 4,
             "`Max <number>`"),
            ("Input device name: \"x\"\n  Event type 3 (EV_ABS)\n    Event code 99 (?)\n", 3, "beyond ABS_MAX"),
            ("Input device name: \"x\"\nProperties:\n  Property type x (INPUT_PROP_DIRECT)\n", 3, "Property type"),
        ] {
            XCTAssertThrowsError(try read(text), text) { e in
                let d = "\(e)"
                XCTAssertTrue(d.hasPrefix("t.evtest.txt:\(line): "), "\(text): \(d)")
                XCTAssertTrue(d.contains(words), "\(text): \(d)")
            }
        }
    }

    /// Found by the text-logs fuzz target: a reader called on bytes with no session at all (the format
    /// check in front of it would not have chosen it) says so instead of trapping.
    func testBytesWithoutAnySessionAreAnErrorNotATrap() {
        for text in ["", "prose only\n", "\n\n"] {
            let bytes = Array(text.utf8)
            XCTAssertThrowsError(try bytes.withUnsafeBufferPointer { try EvtestReader.read($0, file: "x") }) { e in
                XCTAssertEqual((e as? CaptureError)?.reason, .noTouchDevice)
            }
            XCTAssertThrowsError(try bytes.withUnsafeBufferPointer { try GeteventReader.read($0, file: "x") }) { e in
                XCTAssertEqual((e as? CaptureError)?.reason, .noTouchDevice)
            }
        }
    }

    func testTheFormatIsToldApartFromOthers() {
        func format(_ s: String) -> CaptureFormat? {
            Array(s.utf8).withUnsafeBufferPointer { CaptureReader.format(of: $0) }
        }
        XCTAssertEqual(format("Trace from evtest\n\nInput driver version is 1.0.1\n"), .evtest)
        XCTAssertEqual(format("Event: time 1.0, -------------- SYN_REPORT ------------\n"), .evtest)
        XCTAssertEqual(format("N: x\nI: 0003 0001 0002 0003\n"), .evemu)
        XCTAssertEqual(format("[    1.000000] EV_SYN       SYN_REPORT           00000000\n"), .getevent)
        XCTAssertNil(format("Some prose.\nEvents: none.\n"))
        XCTAssertNil(format(""))
    }
}
