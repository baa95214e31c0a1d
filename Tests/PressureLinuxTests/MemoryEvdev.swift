import CLibevdev
import Glibc
import XCTest

/// A libevdev device made in memory (`libevdev_new()` and the enable calls): hardware described without
/// a device node, which this machine does not have.
final class MemoryEvdev {
    let dev: OpaquePointer

    init(name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        dev = try XCTUnwrap(libevdev_new(), file: file, line: line)
        libevdev_set_name(dev, name)
    }

    deinit { libevdev_free(dev) }

    func identity(bus: Int32, vendor: Int32, product: Int32, version: Int32) {
        libevdev_set_id_bustype(dev, bus)
        libevdev_set_id_vendor(dev, vendor)
        libevdev_set_id_product(dev, product)
        libevdev_set_id_version(dev, version)
    }

    func property(_ p: Int32) { XCTAssertEqual(libevdev_enable_property(dev, UInt32(p)), 0) }

    func key(_ code: Int32) { XCTAssertEqual(libevdev_enable_event_code(dev, UInt32(EV_KEY), UInt32(code), nil), 0) }

    func abs(_ code: Int32, _ min: Int32, _ max: Int32, resolution: Int32 = 0, fuzz: Int32 = 0) {
        var info = input_absinfo(value: 0, minimum: min, maximum: max, fuzz: fuzz, flat: 0, resolution: resolution)
        XCTAssertEqual(libevdev_enable_event_code(dev, UInt32(EV_ABS), UInt32(code), &info), 0)
    }

    func slot(_ slot: UInt32, _ code: Int32, _ value: Int32) {
        XCTAssertEqual(libevdev_set_slot_value(dev, slot, UInt32(code), value), 0)
    }

    func value(_ type: Int32, _ code: Int32, _ value: Int32) {
        XCTAssertEqual(libevdev_set_event_value(dev, UInt32(type), UInt32(code), value), 0)
    }

    /// A 10-finger capacitive screen: protocol B, direct, 16 units/mm, pressure 0..255.
    static func multiTouchScreen() throws -> MemoryEvdev {
        let d = try MemoryEvdev(name: "Test Capacitive Screen")
        d.identity(bus: 0x18, vendor: 0x04f3, product: 0x2a1c, version: 0x0100)
        d.property(INPUT_PROP_DIRECT)
        d.key(BTN_TOUCH)
        d.abs(ABS_X, 0, 4095, resolution: 16)
        d.abs(ABS_Y, 0, 2303, resolution: 16)
        d.abs(ABS_MT_SLOT, 0, 9)
        d.abs(ABS_MT_POSITION_X, 0, 4095, resolution: 16)
        d.abs(ABS_MT_POSITION_Y, 0, 2303, resolution: 16)
        d.abs(ABS_MT_TRACKING_ID, 0, 65535)
        d.abs(ABS_MT_PRESSURE, 0, 255)
        return d
    }

    /// A 4-wire resistive panel: one contact, ABS_PRESSURE and BTN_TOUCH, no properties (old driver).
    static func resistivePanel() throws -> MemoryEvdev {
        let d = try MemoryEvdev(name: "Test Resistive Panel")
        d.identity(bus: 0x19, vendor: 0, product: 0, version: 0)
        d.key(BTN_TOUCH)
        d.abs(ABS_X, 100, 3900, fuzz: 4)
        d.abs(ABS_Y, 200, 3800, fuzz: 4)
        d.abs(ABS_PRESSURE, 0, 4095)
        return d
    }
}
