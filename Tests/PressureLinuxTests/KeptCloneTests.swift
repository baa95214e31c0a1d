import Glibc
import XCTest

@testable import PressureLinux

/// The names filter mode's clones are kept under in systemd's store, and the kernel's word on a descriptor
/// passed back as one (the clone itself needs uinput: `tools/vmtest 25` takes one back under systemd).
final class KeptCloneTests: XCTestCase {
    func testAPanelsCloneIsStoredUnderItsNodesName() {
        XCTAssertEqual(TouchClone.storeName(panelNode: "/dev/input/event4"), "pressured-clone-event4")
        XCTAssertTrue(TouchClone.storeName(panelNode: "/dev/input/event12").hasPrefix(TouchClone.storePrefix))
        // What systemd refuses in a name (a colon, spaces, control characters) never reaches it.
        XCTAssertEqual(TouchClone.storeName(panelNode: "/tmp/odd: name\u{7}"), "pressured-clone-oddname")
    }

    func testADescriptorThatIsNoUinputDeviceIsNoClone() {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        defer { close(fds[0]); close(fds[1]) }
        XCTAssertNil(UinputIdentity(descriptor: fds[0]), "a pipe: no device, so never taken for a panel's clone")
        XCTAssertThrowsError(try TouchClone(
            adopting: fds[1], panelName: "panel", panelNode: "/dev/input/event4", panelSlot: 0, slots: 10,
            singleTouch: nil, marksPalms: false)) { error in
            XCTAssertEqual((error as? SystemError)?.errno, ESTALE)
            XCTAssertTrue("\(error)".contains("no device the kernel names"), "\(error)")
        }
        // Left to the caller: still open.
        XCTAssertEqual(write(fds[1], "x", 1), 1)
    }
}
