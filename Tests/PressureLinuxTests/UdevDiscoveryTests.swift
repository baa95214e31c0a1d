import Glibc
import TestSupport
import XCTest

@testable import PressureLinux

final class UdevDiscoveryTests: XCTestCase {
    /// udev counts as running exactly while its control socket exists: a socket made and removed here
    /// turns the answer on and off. (Which devices it would then report is UdevRulesTests' and
    /// TouchDeviceFilterTests' to check, on device descriptions.)
    func testAvailabilityFollowsTheControlSocket() throws {
        let control = try temporaryFolder(self).appendingPathComponent("control").path
        XCTAssertFalse(UdevDiscovery.isAvailable(controlSocket: control), "no socket yet")
        let socket = try SocketStandIn(path: control)
        XCTAssertTrue(UdevDiscovery.isAvailable(controlSocket: control), "the socket is there")
        socket.close()
        XCTAssertFalse(UdevDiscovery.isAvailable(controlSocket: control), "the socket is gone")
    }

    func testEnumerateWithoutUdevFindsNothingAndDoesNotCrash() throws {
        guard !UdevDiscovery.isAvailable() else { throw XCTSkip("udev runs here: its devices are real") }
        let udev = try UdevDiscovery()
        XCTAssertEqual(udev.enumerate(), [])
    }

    func testMonitorWhereNetlinkIsAllowed() throws {
        let udev = try UdevDiscovery()
        let monitor: UdevMonitor
        do { monitor = try udev.makeMonitor() } catch {
            throw XCTSkip("no netlink socket here: \(error)")
        }
        XCTAssertTrue(monitor.nodesAreClassified)
        XCTAssertNotEqual(fcntl(monitor.fd, F_GETFL) & O_NONBLOCK, 0)
        XCTAssertNotEqual(fcntl(monitor.fd, F_GETFD) & FD_CLOEXEC, 0)
        if !UdevDiscovery.isAvailable() { XCTAssertEqual(monitor.receive(), []) }
    }

    func testAnnouncementsBecomeHotplugChanges() {
        var book = UdevHotplugBook()
        let a = "/dev/input/event4", b = "/dev/input/event5"
        XCTAssertEqual(book.apply(action: "add", node: a, isTouch: { true }), .added(node: a))
        XCTAssertNil(book.apply(action: "add", node: b, isTouch: { false }), "not a touch device")
        XCTAssertNil(book.apply(action: "change", node: a, isTouch: { true }), "already reported")
        XCTAssertNil(book.apply(action: "bind", node: a, isTouch: { XCTFail("not asked"); return true }))
        // A node the caller could not open comes back on its next change.
        book.awaitingPermission.insert(a)
        XCTAssertEqual(book.apply(action: "change", node: a, isTouch: { true }), .added(node: a))
        XCTAssertNil(book.apply(action: "change", node: a, isTouch: { true }))
        // Reclassified away from touch: removed.
        XCTAssertEqual(book.apply(action: "change", node: a, isTouch: { false }), .removed(node: a))
        // Every event node's removal is reported; the caller ignores ones it does not have.
        XCTAssertEqual(
            book.apply(action: "remove", node: b, isTouch: { XCTFail("not asked"); return true }), .removed(node: b))
    }

    func testOverflowRescanReportsTheDifference() {
        var book = UdevHotplugBook()
        book.known = ["/dev/input/event1", "/dev/input/event2"]
        book.awaitingPermission = ["/dev/input/event2"]
        let changes = book.rescan(now: ["/dev/input/event2", "/dev/input/event10", "/dev/input/event3"])
        XCTAssertEqual(changes, [
            .removed(node: "/dev/input/event1"), .added(node: "/dev/input/event3"), .added(node: "/dev/input/event10"),
        ])
        XCTAssertEqual(book.known, ["/dev/input/event2", "/dev/input/event3", "/dev/input/event10"])
        XCTAssertEqual(book.awaitingPermission, ["/dev/input/event2"])
    }
}
