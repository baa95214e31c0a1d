@testable import PressureCapture
@testable import PressureCore
import XCTest

/// The kernel's names, both ways: what the writers print beside each event and what the getevent reader
/// looks up.
final class KernelNamesTests: XCTestCase {
    func testEveryNameLooksUpToWhatItNamesWithoutCollisions() throws {
        let names = EventNames.kernel.allNames
        XCTAssertGreaterThan(names.count, 700)
        XCTAssertEqual(Set(names).count, names.count, "a name twice in the table")
        for name in names {
            let meaning = try XCTUnwrap(EventNames.lookup(name), name)
            // A name that is not an alias is also what the number is printed as, unless a later name
            // defines the same number (BTN_MOUSE and BTN_LEFT are both 0x110).
            switch meaning {
            case .type(let t): XCTAssertEqual(EventNames.lookup(EventNames.type(t)), meaning, name)
            case .code(let t, let c): XCTAssertEqual(EventNames.lookup(EventNames.code(type: t, c)), meaning, name)
            case .property(let p): XCTAssertEqual(EventNames.lookup(EventNames.property(p)), meaning, name)
            case .toolType: break
            }
        }
        XCTAssertNil(EventNames.lookup("ABS_MT_PRESSUR"))
        XCTAssertNil(EventNames.lookup("ABS_MT_PRESSUREX"))
        XCTAssertNil(EventNames.lookup(""))
    }

    /// The names the writers put in their comments stay what libevdev prints.
    func testTheWritersNamesAreLibevdevs() {
        XCTAssertEqual(EventNames.code(type: EventType.abs, AbsCode.mtPressure), "ABS_MT_PRESSURE")
        XCTAssertEqual(EventNames.code(type: EventType.abs, 0x2e), "ABS_RESERVED")
        XCTAssertEqual(EventNames.code(type: EventType.key, 0x110), "BTN_LEFT")
        XCTAssertEqual(EventNames.code(type: EventType.key, 0x100), "BTN_0")
        XCTAssertEqual(EventNames.code(type: EventType.key, 0x140), "BTN_TOOL_PEN")
        XCTAssertEqual(EventNames.code(type: EventType.key, 0x74), "KEY_POWER")
        XCTAssertEqual(EventNames.code(type: EventType.syn, SynCode.dropped), "SYN_DROPPED")
        XCTAssertEqual(EventNames.code(type: EventType.msc, 5), "MSC_TIMESTAMP")
        XCTAssertEqual(EventNames.code(type: EventType.abs, 0x3e), "ABS_0x3e")
        XCTAssertEqual(EventNames.code(type: 0x1e, 1), "0x1")
        XCTAssertEqual(EventNames.type(EventType.abs), "EV_ABS")
        XCTAssertEqual(EventNames.property(InputProperty.pressurePad), "INPUT_PROP_PRESSUREPAD")
        XCTAssertEqual(EventNames.lookup("BTN_A"), .code(type: EventType.key, code: 0x130))
        XCTAssertEqual(EventNames.lookup("MT_TOOL_PALM"), .toolType(2))
        XCTAssertEqual(EventNames.lookup("EV_FF_STATUS"), .type(0x17))
    }
}
