import PressureCore
import XCTest

@testable import PressureLinux

final class TouchDeviceFilterTests: XCTestCase {
    func testUdevProperties() {
        let table: [([String: String], Bool, String)] = [
            (["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"], true, "touchscreen"),
            (["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1"], true, "touchpad"),
            (["ID_INPUT": "1", "ID_INPUT_TABLET": "1"], false, "pen tablet"),
            (["ID_INPUT": "1", "ID_INPUT_MOUSE": "1"], false, "mouse"),
            (["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1", "ID_INPUT_KEY": "1"], false, "keyboard"),
            (["ID_INPUT": "1", "ID_INPUT_JOYSTICK": "1"], false, "joystick"),
            (["ID_INPUT_TOUCHSCREEN": "0"], false, "explicitly not"),
            ([:], false, "nothing"),
        ]
        for (properties, expected, what) in table {
            XCTAssertEqual(TouchDeviceFilter.isTouch(properties: properties), expected, what)
        }
    }

    static func description(
        properties: Set<UInt16> = [], keys: Set<UInt16> = [], axes: [UInt16]
    ) -> DeviceDescription {
        var absInfo: [UInt16: AbsInfo] = [:]
        for a in axes { absInfo[a] = AbsInfo(minimum: 0, maximum: 1000) }
        return DeviceDescription(
            name: "t", properties: properties,
            codes: [EventType.key: keys, EventType.abs: Set(axes)], absInfo: absInfo)
    }

    func testDescriptions() {
        let mt = [AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID]
        let penTool: UInt16 = 0x140, stylus: UInt16 = 0x14b, joystickTrigger: UInt16 = 0x120
        let table: [(DeviceDescription, Bool, String)] = [
            (Self.description(properties: [InputProperty.direct], keys: [KeyCode.btnTouch], axes: mt), true, "MT screen"),
            (Self.description(keys: [KeyCode.btnTouch, KeyCode.btnToolFinger], axes: mt), true, "MT pad"),
            (Self.description(axes: [AbsCode.mtPositionX, AbsCode.mtPositionY]), true, "protocol A"),
            (Self.description(axes: [AbsCode.mtPositionX]), false, "MT x without y"),
            (Self.description(keys: [KeyCode.btnTouch], axes: [AbsCode.x, AbsCode.y, AbsCode.pressure]), true, "resistive"),
            (Self.description(keys: [KeyCode.btnTouch], axes: [AbsCode.x, AbsCode.y]), true, "ST without pressure"),
            (Self.description(properties: [InputProperty.direct], axes: [AbsCode.x, AbsCode.y, AbsCode.pressure]), true,
             "direct, pressure, no BTN_TOUCH"),
            (Self.description(axes: [AbsCode.x, AbsCode.y, AbsCode.pressure]), false, "pressure alone, not direct"),
            (Self.description(keys: [joystickTrigger], axes: [AbsCode.x, AbsCode.y]), false, "joystick"),
            (Self.description(keys: [KeyCode.btnTouch, penTool, stylus], axes: [AbsCode.x, AbsCode.y, AbsCode.pressure]),
             false, "pen tablet"),
            (Self.description(properties: [InputProperty.direct], keys: [KeyCode.btnTouch, penTool], axes: mt), false,
             "pen with MT axes"),
            (Self.description(properties: [0x06], axes: [AbsCode.x, AbsCode.y]), false, "accelerometer"),
            (Self.description(keys: [KeyCode.btnTouch], axes: []), false, "button only"),
        ]
        for (d, expected, what) in table {
            XCTAssertEqual(TouchDeviceFilter.isTouch(d), expected, what)
            if expected { XCTAssertNoThrow(try TouchDevice(d), "\(what): the core must accept what the filter does") }
        }
    }

    func testEventNodeNames() {
        XCTAssertEqual(EventNode.number("event0"), 0)
        XCTAssertEqual(EventNode.number("event12"), 12)
        for name in ["event", "event3.tmp", "mouse0", "js0", "by-id", "eventX", "event-1", "Event1", "event١"] {
            XCTAssertNil(EventNode.number(name), name)
        }
        XCTAssertEqual(
            EventNode.sorted(["/dev/input/event10", "/dev/input/event2", "/dev/input/event1"]),
            ["/dev/input/event1", "/dev/input/event2", "/dev/input/event10"])
        XCTAssertTrue(EventNode.isEventNode("/dev/input/event4"))
        XCTAssertFalse(EventNode.isEventNode("/dev/input/mice"))
    }
}
