import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// Android `getevent -lt` / `-t` logs: named and numeric lines, device blocks, interleaved devices, the
/// protocol and ranges a header-less log is assumed to have, and the errors, each naming file and line.
final class GeteventReaderTests: XCTestCase {
    func read(_ text: String, desc: DeviceDescription? = nil, device: Int? = nil) throws -> Capture {
        try CaptureReader.read(Array(text.utf8), file: "logs/phone.getevent.txt", description: desc, deviceIndex: device)
    }

    func testNamedAndNumericLinesRead() throws {
        let c = try read("""
            [   34490.122344] EV_ABS       ABS_MT_TRACKING_ID   00000082            
            [   34490.122344] EV_ABS       ABS_MT_TOOL_TYPE     MT_TOOL_PALM        
            [   34490.122344] EV_ABS       0035                 000001ad            
            [   34490.122344] EV_KEY       BTN_TOUCH            DOWN                
            [   34490.122344] EV_KEY       BTN_TOUCH            UP                  
            [   34490.122344] 0003 0036 00000077
            [   34490.122375] EV_SYN       SYN_REPORT           00000000             rate 60
            [   34490.122400] EV_ABS       ABS_MT_TRACKING_ID   ffffffff
            [   34490.122400] EV_ABS       ABS_MT_TRACKING_ID   FFFFFFFE\r
            [   34490.122400] 0017 0001 7fffffff
            [   34490.122400] EV_SYN       SYN_MT_REPORT        00000000
            """)
        XCTAssertEqual(c.events, [
            event(34_490_122_344, 3, 0x39, 0x82), event(34_490_122_344, 3, 0x37, 2), event(34_490_122_344, 3, 0x35, 0x1ad),
            event(34_490_122_344, 1, 0x14a, 1), event(34_490_122_344, 1, 0x14a, 0), event(34_490_122_344, 3, 0x36, 0x77),
            event(34_490_122_375, 0, 0, 0), event(34_490_122_400, 3, 0x39, -1), event(34_490_122_400, 3, 0x39, -2),
            event(34_490_122_400, 0x17, 1, Int32.max), event(34_490_122_400, 0, 2, 0),
        ])
    }

    /// The protocol a header-less log is taken to speak, from its events.
    func testAHeaderlessLogsProtocolComesFromItsEvents() throws {
        let b = "[ 1.000000] EV_ABS ABS_MT_TRACKING_ID 00000001\n[ 1.000000] EV_ABS ABS_MT_POSITION_X 00000010\n"
            + "[ 1.000000] EV_ABS ABS_MT_POSITION_Y 00000020\n[ 1.000000] EV_SYN SYN_REPORT 00000000\n"
        let noSlots = try read(b)
        XCTAssertEqual(noSlots.device.axis(AbsCode.mtSlot), AbsInfo(minimum: 0, maximum: 0))
        XCTAssertEqual(try TouchDevice(noSlots.device).contactProtocol, .slotted(slots: 1))
        XCTAssertTrue(noSlots.assumptions.contains("tracking ids without ABS_MT_SLOT: protocol B with one slot assumed (ABS_MT_SLOT 0..0)"))

        let slots = try read("[ 0.5] EV_ABS ABS_MT_SLOT 00000003\n" + b)
        XCTAssertEqual(slots.device.axis(AbsCode.mtSlot), AbsInfo(minimum: 0, maximum: 3))
        XCTAssertEqual(try TouchDevice(slots.device).contactProtocol, .slotted(slots: 4))

        let a = try read(b.replacingOccurrences(of: "SYN_REPORT", with: "SYN_MT_REPORT") + "[ 1.0] EV_SYN SYN_REPORT 00000000\n")
        XCTAssertNil(a.device.axis(AbsCode.mtSlot))
        XCTAssertEqual(try TouchDevice(a.device).contactProtocol, .anonymous)
        XCTAssertTrue(a.assumptions.contains("SYN_MT_REPORT seen: multi-touch protocol A assumed (no slots)"))
    }

    func testEveryAssumptionIsStatedAndTheDeviceIsNamedAfterTheFile() throws {
        let c = try read("""
            [ 1.000000] EV_ABS       ABS_MT_TRACKING_ID   00000001
            [ 1.000000] EV_ABS       ABS_MT_TOUCH_MAJOR   00000005
            [ 1.000000] EV_ABS       ABS_MT_PRESSURE      0000012c
            [ 1.000000] EV_ABS       ABS_MT_POSITION_X    0000021b
            [ 1.000000] EV_ABS       ABS_MT_POSITION_Y    00000000
            [ 1.000000] EV_ABS       ABS_MT_ORIENTATION   fffffff0
            [ 1.000000] EV_SYN       SYN_REPORT           00000000
            """)
        XCTAssertEqual(c.device.name, "getevent log phone")
        XCTAssertEqual(c.assumptions, [
            "no device description in the file (give one with --desc FILE): ABS_MT_PRESSURE 0..300 (values above the usual 255 seen), ABS_MT_TOUCH_MAJOR 0..255, ABS_MT_TRACKING_ID 0..65535 assumed; ABS_MT_ORIENTATION -16..1, ABS_MT_POSITION_X 0..539, ABS_MT_POSITION_Y 0..1 from the values seen",
            "tracking ids without ABS_MT_SLOT: protocol B with one slot assumed (ABS_MT_SLOT 0..0)",
            "taken as a touchscreen: INPUT_PROP_DIRECT assumed",
        ])
        XCTAssertEqual(c.device.properties, [InputProperty.direct])
        XCTAssertEqual(c.device.axis(AbsCode.mtPressure), AbsInfo(minimum: 0, maximum: 300))
        XCTAssertEqual(try TouchDevice(c.device).kind, .touchscreen)
    }

    static let blocks = """
        add device 1: /dev/input/event4
          name:     "gpio-keys"
          events:
            KEY (0001): KEY_VOLUMEDOWN*       KEY_POWER             0074                  KEY_MADE_UP_NAME
          input props:
            <none>
        could not get driver version for /dev/input/mouse0, Not a typewriter
        add device 2: /dev/input/event2
          bus:      0018
          vendor    04f3
          product   0001
          version   0100
          name:     "touch_dev"
          location: ""
          id:       ""
          version:  1.0.1
          events:
            KEY (0001): BTN_TOUCH            
            ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                        ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 2, flat 1, resolution 12
                        0036                  : value 0, min 0, max 1919, fuzz 0, flat 0, resolution 12
                        ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
                        ABS_MT_PRESSURE       : value 0, min 0, max 1023, fuzz 0, flat 0, resolution 0
          input props:
            INPUT_PROP_DIRECT

        """

    func testDeviceBlocksDescribeAndNodesTellDevicesApart() throws {
        let text = Self.blocks + """
            [     81.500000] /dev/input/event4: EV_KEY       KEY_VOLUMEDOWN       DOWN
            [     81.500000] /dev/input/event4: EV_SYN       SYN_REPORT           00000000
            [     81.510000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000007
            [     81.510000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
            [     81.520000] /dev/input/event4: EV_KEY       KEY_VOLUMEDOWN       UP
            [     81.520000] /dev/input/event7: EV_ABS       ABS_X                00000001
            [     81.530000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
            """
        let touch = try read(text)
        XCTAssertEqual(touch.device.name, "touch_dev")
        XCTAssertEqual(touch.device.identity, DeviceIdentity(bus: 0x18, vendor: 0x4f3, product: 1, version: 0x100))
        XCTAssertEqual(touch.device.properties, [InputProperty.direct])
        XCTAssertEqual(touch.device.codes[EventType.key], [KeyCode.btnTouch])
        XCTAssertEqual(touch.device.axis(AbsCode.mtPositionX), AbsInfo(minimum: 0, maximum: 1079, fuzz: 2, flat: 1, resolution: 12))
        XCTAssertEqual(touch.device.axis(AbsCode.mtPositionY), AbsInfo(minimum: 0, maximum: 1919, resolution: 12))
        XCTAssertEqual(touch.device.axis(AbsCode.mtPressure), AbsInfo(minimum: 0, maximum: 1023))
        XCTAssertEqual(touch.assumptions, [])
        XCTAssertEqual(touch.events, [event(81_510_000, 3, 0x39, 7), event(81_510_000, 0, 0, 0), event(81_530_000, 3, 0x39, -1)])

        let keys = try read(text, device: 0)
        XCTAssertEqual(keys.device.codes[EventType.key], [0x72, 0x74])
        XCTAssertEqual(keys.events.map(\.value), [1, 0, 0])
        XCTAssertEqual(keys.assumptions, ["names the kernel table here lacks: KEY_MADE_UP_NAME; 0 event(s) with them left out"])
        // A node seen only in events is a device of its own, numbered after those before it.
        let stray = try read(text, device: 2)
        XCTAssertEqual(stray.device.name, "getevent log phone (/dev/input/event7)")
        XCTAssertEqual(stray.events, [event(81_520_000, 3, 0, 1)])
        XCTAssertThrowsError(try read(text, device: 3)) { e in
            XCTAssertEqual((e as? CaptureError)?.reason, .noSuchDevice(index: 3, count: 3))
        }
    }

    func testLinesWithoutANodeBelongToTheOneDescribedDevice() throws {
        let block = Self.blocks.components(separatedBy: "could not get")[1].drop { $0 != "\n" }.dropFirst()
        let c = try read(String(block) + "[ 2.000000] EV_ABS ABS_MT_PRESSURE 00000010\n")
        XCTAssertEqual(c.device.name, "touch_dev")
        XCTAssertEqual(c.events, [event(2_000_000, 3, 0x3a, 16)])
    }

    func testANumericBlockAndDescStandInForNames() throws {
        let c = try read("""
            add device 1: /dev/input/event1
              name:     "numeric"
              events:
                KEY (0001): 014a  0145*
                ABS (0003): 0035  : value 0, min 0, max 99, fuzz 0, flat 0, resolution 0
                            0036  : value 0, min 0, max 77, fuzz 0, flat 0, resolution 0
              input props:
                0002
            [ 3.0] 0003 0035 00000005
            """)
        XCTAssertEqual(c.device.codes[EventType.key], [KeyCode.btnTouch, KeyCode.btnToolFinger])
        XCTAssertEqual(c.device.axis(AbsCode.mtPositionY), AbsInfo(minimum: 0, maximum: 77))
        XCTAssertEqual(c.device.properties, [InputProperty.buttonpad])

        let desc = DeviceDescription(name: "", codes: [EventType.abs: [0x35, 0x36]],
                                     absInfo: [0x35: AbsInfo(minimum: 0, maximum: 5), 0x36: AbsInfo(minimum: 0, maximum: 5)])
        let given = try read("[ 3.0] 0003 0035 00000005\n[ 3.0] 0001 014a 00000001\n", desc: desc)
        XCTAssertEqual(given.device.name, "getevent log phone")
        XCTAssertEqual(given.device.axis(AbsCode.mtPositionX), AbsInfo(minimum: 0, maximum: 5))
        XCTAssertEqual(given.assumptions, ["the description declares no BTN_TOUCH: taken from the events"])
    }

    func testNamesCutTo20CharactersAndNamesTheTableLacks() throws {
        // getevent prints at most 20 characters of a name; KEY_ROTATE_LOCK_TOGGLE is 22.
        let c = try read("""
            [ 1.0] EV_KEY       KEY_ROTATE_LOCK_TOGG DOWN
            [ 1.0] EV_KEY       KEY_FROM_THE_FUTURE  DOWN
            [ 1.0] EV_KEY       KEY_FROM_THE_FUTURE  UP
            [ 1.0] EV_ABS       ABS_MT_POSITION_X    00000001
            """)
        XCTAssertEqual(c.events.first, event(1_000_000, 1, 0x231, 1))
        XCTAssertEqual(c.events.count, 2)
        XCTAssertTrue(c.assumptions.contains("names the kernel table here lacks: KEY_FROM_THE_FUTURE; 2 event(s) with them left out"))
    }

    func testMalformedLinesNameTheFileAndLine() {
        for (text, line, words) in [
            ("[ 1.0] EV_ABS ABS_MT_PRESSURE\n", 1, "a type, a code and a value"),
            ("[ 1.0] EV_SYN SYN_REPORT 00000000\n[ x] EV_ABS ABS_MT_PRESSURE 00000001\n", 2, "expected an event"),
            ("[ 1.0 EV_ABS ABS_MT_PRESSURE 00000001\n", 1, "expected an event"),
            ("\n[ 1.0] EV_ABS ABS_MT_PRESURE 00000001\n", 2, "not a code of EV_ABS"),
            ("[ 1.0] EV_SYN SYN_REPORTED 00000000\n", 1, "not a code of EV_SYN"),
            ("[ 1.0] EV_ABS ABS_MT_PRESSURE zz\n", 1, "not a value"),
            ("[ 1.0] EV_ABS ABS_MT_PRESSURE 1ffffffff\n", 1, "not a value"),
            ("[ 1.0] EV_FOO ABS_MT_PRESSURE 00000001\n", 1, "not an event type"),
            ("[ 1.0] EV_ABS ABS_MT_PRESSURE 00000001 00000002\n", 1, "unexpected text"),
            ("[ 1.0] EV_KEY BTN_TOUCH SIDEWAYS\n", 1, "not a value"),
            ("[ 1.0] EV_SYN SYN_REPORT 0\n/dev/input/event2: EV_ABS ABS_MT_PRESSURE 00000001\n", 2, "without a time stamp"),
            ("[ 1.0] EV_SYN SYN_REPORT 0\nEV_ABS       ABS_MT_PRESSURE      00000001\n", 2, "without a time stamp"),
            ("[ 1.0] EV_SYN SYN_REPORT 0\n0003 003a 00000001\n", 2, "without a time stamp"),
            ("add device one: /dev/input/event1\n", 1, "add device <n>"),
            ("add device 1: /dev/input/event1\n  bus:      zz\n", 2, "bus:"),
            ("add device 1: /dev/input/event1\n  events:\n    ABS (0003): ABS_X : value 0, min x\n", 3, "min N, max N"),
            ("add device 1: /dev/input/event1\n  events:\n    ABS (0003): ABS_X : value 0, fuzz 0\n", 3, "its min and max"),
            ("add device 1: /dev/input/event1\n  events:\n    ABS (0003): ABS_NOPE : value 0\n", 3, "not an ABS code"),
            ("add device 1: /dev/input/event1\n  events:\n    KEY (00zz): BTN_TOUCH\n", 3, "<TYPE> (<4 hex digits>)"),
        ] {
            XCTAssertThrowsError(try read(text), text) { e in
                let d = "\(e)"
                XCTAssertTrue(d.hasPrefix("logs/phone.getevent.txt:\(line): "), "\(text): \(d)")
                XCTAssertTrue(d.contains(words), "\(text): \(d)")
            }
        }
    }

    func testTextThatIsNotTheLogsIsSkipped() throws {
        let c = try read("""
            $ adb shell getevent -lt
            remove device 3: /dev/input/event3
            rate 60

            [ 1.0] EV_ABS ABS_MT_PRESSURE 00000010
            ^C
            """)
        XCTAssertEqual(c.events, [event(1_000_000, 3, 0x3a, 16)])
    }
}
