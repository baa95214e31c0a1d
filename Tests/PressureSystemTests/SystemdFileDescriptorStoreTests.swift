import CLinux
import Glibc
import XCTest

@testable import PressureSystem

/// systemd's file descriptor store, both ways: what the daemon sends (`FDSTORE=1` with the descriptor,
/// `FDSTOREREMOVE=1`) to a real datagram socket standing in for systemd's, and how the descriptors passed
/// back are told from listening sockets by their names (`LISTEN_FDNAMES`).
final class SystemdFileDescriptorStoreTests: XCTestCase {
    let prefix = "pressured-clone-"

    func testStoredDescriptorsAreToldFromSocketsByName() {
        let p = SocketActivation.Passed(count: 4, names: "pressured.socket:pressured-clone-event4:pressured-clone-event7:web",
                                        storedPrefixes: [prefix])
        XCTAssertEqual(p.listening, [3, 6])
        XCTAssertEqual(p.stored, ["pressured-clone-event4": 4, "pressured-clone-event7": 5])
        XCTAssertEqual(p.duplicates, [])
    }

    func testWithoutNamesEveryDescriptorIsASocket() {
        XCTAssertEqual(SocketActivation.Passed(count: 2, names: nil, storedPrefixes: [prefix]).listening, [3, 4])
        // Fewer names than descriptors: the unnamed rest are sockets too.
        let short = SocketActivation.Passed(count: 3, names: "pressured-clone-event4", storedPrefixes: [prefix])
        XCTAssertEqual(short.stored, ["pressured-clone-event4": 3])
        XCTAssertEqual(short.listening, [4, 5])
        // No prefixes (the web bridge): all sockets, whatever their names.
        XCTAssertEqual(SocketActivation.Passed(count: 2, names: "a:pressured-clone-x", storedPrefixes: []).listening, [3, 4])
    }

    func testANameGivenTwiceKeepsTheFirstAndHandsBackTheOther() {
        let p = SocketActivation.Passed(count: 3, names: "pressured-clone-event4:pressured-clone-event4:s",
                                        storedPrefixes: [prefix])
        XCTAssertEqual(p.stored, ["pressured-clone-event4": 3])
        XCTAssertEqual(p.duplicates, [4])
        XCTAssertEqual(p.listening, [5])
    }

    func testStoreSendsTheDescriptorAndRemoveNamesIt() throws {
        let dir = "/tmp/pressured-fdstore-\(getpid())"
        mkdir(dir, 0o700)
        defer { unlink(dir + "/notify"); rmdir(dir) }
        let listener = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(listener) }
        var addr = sockaddr_un()
        let len = pressured_sockaddr_un(&addr, dir + "/notify")
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(len)) } }
        XCTAssertEqual(bound, 0)
        setenv("NOTIFY_SOCKET", dir + "/notify", 1)
        let made = SystemdNotify()
        unsetenv("NOTIFY_SOCKET")
        let notify = try XCTUnwrap(made)

        var pipeFDs: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&pipeFDs), 0)
        defer { close(pipeFDs[0]); close(pipeFDs[1]) }
        XCTAssertTrue(notify.store(pipeFDs[1], name: "pressured-clone-event4"))
        var buf = [CChar](repeating: 0, count: 512)
        var received: Int32 = -1
        XCTAssertGreaterThan(pressured_receive_with_fd(listener, &buf, buf.count, &received), 0)
        XCTAssertEqual(String(cString: buf), "FDSTORE=1\nFDNAME=pressured-clone-event4")
        XCTAssertGreaterThanOrEqual(received, 0, "the descriptor rode along")
        defer { close(received) }
        // The same open file: written through the received copy, read from the pipe's other end.
        XCTAssertEqual(write(received, "x", 1), 1)
        var byte: UInt8 = 0
        XCTAssertEqual(read(pipeFDs[0], &byte, 1), 1)
        XCTAssertEqual(byte, UInt8(ascii: "x"))

        notify.removeStored(name: "pressured-clone-event4")
        var other: Int32 = -1
        XCTAssertGreaterThan(pressured_receive_with_fd(listener, &buf, buf.count, &other), 0)
        XCTAssertEqual(String(cString: buf), "FDSTOREREMOVE=1\nFDNAME=pressured-clone-event4")
        XCTAssertEqual(other, -1, "no descriptor with a removal")
    }
}
