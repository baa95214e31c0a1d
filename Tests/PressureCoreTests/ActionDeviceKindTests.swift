import XCTest

@testable import PressureCore

/// The action devices' descriptions: an absolute pointer as QEMU's tablet (no `INPUT_PROP_DIRECT`), a
/// keyboard with every ordinary key, both named and placed so pressured and its udev rule leave them alone.
final class ActionDeviceKindTests: XCTestCase {
    func testThePointerIsAnAbsolutePointerNotATouchscreen() {
        let d = ActionDeviceKind.pointer.description(forPanel: "FlatFrog 3200")
        XCTAssertEqual(d.name, "FlatFrog 3200 pointer (pressured)")
        XCTAssertEqual(d.identity.bus, BusType.virtual)
        XCTAssertEqual(d.properties, [])
        XCTAssertEqual(d.codes[EventType.abs], [AbsCode.x, AbsCode.y])
        XCTAssertEqual(d.codes[EventType.key], [KeyCode.btnLeft, KeyCode.btnRight, KeyCode.btnMiddle])
        XCTAssertEqual(d.absInfo[AbsCode.x], AbsInfo(minimum: 0, maximum: 32767))
    }

    func testTheKeyboardHasEveryOrdinaryKeyAndThoseActionsName() {
        let d = ActionDeviceKind.keyboard.description(forPanel: "P", keys: [0x1d0])
        XCTAssertEqual(d.name, "P keyboard (pressured)")
        let keys = d.codes[EventType.key] ?? []
        XCTAssertTrue(keys.isSuperset(of: [1, 0x1d, 0x2e, 0x8b, 0xF8, 0x1d0]))
        XCTAssertFalse(keys.contains(0))
        XCTAssertTrue(ActionDeviceKind.allCases.allSatisfy { $0.name(forPanel: "P").hasSuffix(ActionDeviceKind.nameSuffix) })
    }
}
