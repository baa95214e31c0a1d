import XCTest

@testable import PressureCore
@testable import PressureLinux

/// pressured never serves its own action devices (making and writing them needs uinput: the VM's checks).
final class ActionDeviceTests: XCTestCase {
    func testDiscoveryLeavesTheActionDevicesAlone() {
        for kind in ActionDeviceKind.allCases {
            let d = kind.description(forPanel: "FlatFrog 3200", keys: [0x8b])
            XCTAssertFalse(TouchDeviceFilter.isTouch(d), "\(kind) is no touch device")
            XCTAssertTrue(TouchClone.isClone(named: d.name), "\(kind) is named as pressured's own")
        }
    }
}
