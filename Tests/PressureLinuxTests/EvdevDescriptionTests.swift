import CLibevdev
import PressureCore
import XCTest

@testable import PressureLinux

final class EvdevDescriptionTests: XCTestCase {
    func testMultiTouchScreenIsDescribedAndParsed() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        let d = EvdevDescription.description(of: mem.dev)
        XCTAssertEqual(d.name, "Test Capacitive Screen")
        XCTAssertEqual(d.identity, DeviceIdentity(bus: 0x18, vendor: 0x04f3, product: 0x2a1c, version: 0x0100))
        XCTAssertEqual(d.properties, [InputProperty.direct])
        XCTAssertTrue(d.has(type: EventType.key, code: KeyCode.btnTouch))
        XCTAssertEqual(
            d.codes[EventType.abs],
            [AbsCode.x, AbsCode.y, AbsCode.mtSlot, AbsCode.mtPositionX, AbsCode.mtPositionY, AbsCode.mtTrackingID,
             AbsCode.mtPressure])
        XCTAssertEqual(d.axis(AbsCode.mtPositionX), AbsInfo(minimum: 0, maximum: 4095, resolution: 16))
        XCTAssertEqual(d.axis(AbsCode.mtSlot), AbsInfo(minimum: 0, maximum: 9))
        XCTAssertEqual(d.absInfo.count, 7, "absinfo for every ABS code present, none for absent ones")

        let touch = try TouchDevice(d)
        XCTAssertEqual(touch.kind, .touchscreen)
        XCTAssertEqual(touch.contactProtocol, .slotted(slots: 10))
        XCTAssertEqual(touch.pressureAxis, AbsInfo(minimum: 0, maximum: 255))
        XCTAssertTrue(touch.hasPressure)
        XCTAssertTrue(touch.hasTrackingID)
        let size = try XCTUnwrap(touch.sizeMillimetres)
        XCTAssertEqual(size.width, 4095.0 / 16, accuracy: 1e-9)
        XCTAssertEqual(size.height, 2303.0 / 16, accuracy: 1e-9)
    }

    /// A libevdev made from a description (what a single-touch panel's one-slot clone is created from)
    /// describes it back as it was, but for force feedback and key repeat, which a clone never declares.
    func testALibevdevMadeFromADescriptionDescribesItBack() throws {
        let resistive = try MemoryEvdev.resistivePanel()
        resistive.key(BTN_TOOL_FINGER)
        let panel = withExtendedLifetime(resistive) { EvdevDescription.description(of: resistive.dev) }
        let clone = SingleTouchSlot.cloneDescription(of: panel)
        // Held in a constant: a temporary's libevdev may be freed before it is read.
        let screen = try MemoryEvdev.multiTouchScreen()
        let multiTouch = withExtendedLifetime(screen) { EvdevDescription.description(of: screen.dev) }
        for d in [panel, clone, multiTouch] {
            let dev = try XCTUnwrap(EvdevDescription.libevdev(describing: d))
            defer { libevdev_free(dev) }
            XCTAssertEqual(EvdevDescription.description(of: dev), d)
        }
        var rumble = panel
        rumble.codes[UInt16(EV_FF)] = [UInt16(FF_RUMBLE)]
        let dev = try XCTUnwrap(EvdevDescription.libevdev(describing: rumble))
        defer { libevdev_free(dev) }
        XCTAssertEqual(EvdevDescription.description(of: dev), panel, "no force feedback on a clone")
    }

    func testResistivePanelIsSingleTouchWithPressure() throws {
        let mem = try MemoryEvdev.resistivePanel()
        let d = EvdevDescription.description(of: mem.dev)
        XCTAssertEqual(d.name, "Test Resistive Panel")
        XCTAssertEqual(d.identity.bus, 0x19)
        XCTAssertEqual(d.properties, [])
        XCTAssertEqual(d.axis(AbsCode.x), AbsInfo(minimum: 100, maximum: 3900, fuzz: 4))
        XCTAssertNil(d.axis(AbsCode.mtPositionX))

        let touch = try TouchDevice(d)
        XCTAssertEqual(touch.kind, .touchscreen)
        XCTAssertEqual(touch.contactProtocol, .singleTouch)
        XCTAssertEqual(touch.pressureAxis, AbsInfo(minimum: 0, maximum: 4095))
        XCTAssertTrue(touch.hasTouchButton)
        XCTAssertNil(touch.sizeMillimetres)
    }

    func testTouchpadIsATouchpad() throws {
        let mem = try MemoryEvdev(name: "Test Touchpad")
        mem.property(INPUT_PROP_POINTER)
        mem.property(INPUT_PROP_BUTTONPAD)
        mem.key(BTN_TOUCH)
        mem.key(BTN_TOOL_FINGER)
        mem.key(BTN_LEFT)
        mem.abs(ABS_MT_SLOT, 0, 4)
        mem.abs(ABS_MT_POSITION_X, 0, 1200, resolution: 12)
        mem.abs(ABS_MT_POSITION_Y, 0, 800, resolution: 12)
        mem.abs(ABS_MT_TRACKING_ID, 0, 65535)
        let d = EvdevDescription.description(of: mem.dev)
        XCTAssertEqual(d.properties, [InputProperty.pointer, InputProperty.buttonpad])
        let touch = try TouchDevice(d)
        XCTAssertEqual(touch.kind, .touchpad)
        XCTAssertEqual(touch.contactProtocol, .slotted(slots: 5))
        XCTAssertFalse(touch.hasPressure)
        XCTAssertTrue(TouchDeviceFilter.isTouch(d))
    }

    func testKeyboardIsNotATouchDevice() throws {
        let mem = try MemoryEvdev(name: "Test Keyboard")
        mem.key(KEY_A)
        mem.key(KEY_ENTER)
        let d = EvdevDescription.description(of: mem.dev)
        XCTAssertEqual(d.codes[EventType.key], [UInt16(KEY_A), UInt16(KEY_ENTER)])
        XCTAssertThrowsError(try TouchDevice(d))
        XCTAssertFalse(TouchDeviceFilter.isTouch(d))
    }
}
