import Foundation
import Glibc
import XCTest

@testable import PressureLinux

final class DevInputWatcherTests: XCTestCase {
    var root = ""

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "pressured-watch-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    func touch(_ path: String) { XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: nil), path) }

    func testCreateAndDeleteReportEventNodesOnly() throws {
        let watcher = try DevInputWatcher(directory: root)
        XCTAssertEqual(watcher.scan(), [])
        XCTAssertEqual(watcher.receive(), [])
        touch(root + "/event3")
        touch(root + "/mouse0")
        touch(root + "/event3.tmp")
        XCTAssertEqual(watcher.receive(), [.added(node: root + "/event3")])
        XCTAssertEqual(watcher.receive(), [], "nothing pending: receive does not block")
        XCTAssertEqual(unlink(root + "/mouse0"), 0)
        XCTAssertEqual(unlink(root + "/event3"), 0)
        XCTAssertEqual(watcher.receive(), [.removed(node: root + "/event3")])
        XCTAssertFalse(watcher.nodesAreClassified)
    }

    func testScanListsExistingNodesInNumberOrder() throws {
        for name in ["event10", "event2", "mice", "event0"] { touch(root + "/" + name) }
        let watcher = try DevInputWatcher(directory: root + "/")
        XCTAssertEqual(watcher.scan(), [root + "/event0", root + "/event2", root + "/event10"])
        XCTAssertEqual(unlink(root + "/event2"), 0)
        XCTAssertEqual(watcher.receive(), [.removed(node: root + "/event2")])
    }

    func testAttributeChangeRetriesANodeThatCouldNotBeOpened() throws {
        let watcher = try DevInputWatcher(directory: root)
        let node = root + "/event5"
        touch(node)
        XCTAssertEqual(chmod(node, 0o600), 0)
        XCTAssertEqual(watcher.receive(), [.added(node: node)])
        // An attribute change of a node nobody is waiting for reports nothing.
        XCTAssertEqual(chmod(node, 0o640), 0)
        XCTAssertEqual(watcher.receive(), [])
        // The caller's open failed with EACCES; whoever sets permissions runs next.
        watcher.retryWhenAttributesChange(node)
        XCTAssertEqual(chown(node, getuid(), getgid()), 0)
        XCTAssertEqual(watcher.receive(), [.added(node: node)])
        XCTAssertEqual(chmod(node, 0o660), 0)
        XCTAssertEqual(watcher.receive(), [], "one retry per request")
        // A node removed while waiting is reported removed, and not added again.
        watcher.retryWhenAttributesChange(node)
        XCTAssertEqual(unlink(node), 0)
        XCTAssertEqual(watcher.receive(), [.removed(node: node)])
    }

    func testRenamesCountAsAddAndRemove() throws {
        let watcher = try DevInputWatcher(directory: root)
        touch(root + "/.event7.tmp")
        XCTAssertEqual(rename(root + "/.event7.tmp", root + "/event7"), 0)
        XCTAssertEqual(watcher.receive(), [.added(node: root + "/event7")])
        XCTAssertEqual(rename(root + "/event7", root + "/old"), 0)
        XCTAssertEqual(watcher.receive(), [.removed(node: root + "/event7")])
    }

    func testDirectoryThatComesAndGoes() throws {
        // devtmpfs removes /dev/input with its last node and makes it again with the next.
        let input = root + "/input"
        let watcher = try DevInputWatcher(directory: input)
        XCTAssertEqual(watcher.scan(), [])
        XCTAssertEqual(watcher.receive(), [])
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: false)
        touch(input + "/event1")
        XCTAssertEqual(watcher.receive(), [.added(node: input + "/event1")], "found by the scan on attach")
        touch(input + "/event2")
        XCTAssertEqual(watcher.receive(), [.added(node: input + "/event2")])
        try FileManager.default.removeItem(atPath: input)
        XCTAssertEqual(
            Set(watcher.receive()), [.removed(node: input + "/event1"), .removed(node: input + "/event2")])
        try FileManager.default.createDirectory(atPath: input, withIntermediateDirectories: false)
        XCTAssertEqual(watcher.receive(), [])
        touch(input + "/event3")
        XCTAssertEqual(watcher.receive(), [.added(node: input + "/event3")])
    }

    func testMissingParentIsAnError() {
        let path = root + "/no/such/input"
        XCTAssertThrowsError(try DevInputWatcher(directory: path)) { error in
            guard let e = error as? SystemError else { return XCTFail("\(error)") }
            XCTAssertEqual(e, SystemError(call: "inotify_add_watch", subject: root + "/no/such", errno: ENOENT))
        }
    }

    func testDescriptorIsNonBlockingAndCloseOnExec() throws {
        let watcher = try DevInputWatcher(directory: root)
        XCTAssertNotEqual(fcntl(watcher.fd, F_GETFL) & O_NONBLOCK, 0)
        XCTAssertNotEqual(fcntl(watcher.fd, F_GETFD) & FD_CLOEXEC, 0)
    }

    func testManyNodesAtOnce() throws {
        let watcher = try DevInputWatcher(directory: root)
        for i in 0..<600 { touch(root + "/event\(i)") }
        let added = watcher.receive()
        XCTAssertEqual(added.count, 600, "several buffers' worth of events are all read")
        XCTAssertEqual(Set(added).count, 600)
    }
}
