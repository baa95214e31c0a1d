import Glibc
import XCTest
@testable import PressureLinux

/// An `accept4` failure by kind: what is retried at once, what spends the reserve descriptor, what makes
/// the listener rest.
final class AcceptFailureTests: XCTestCase {
    func testEachErrnoHasItsKind() {
        for e in [ECONNABORTED, EPROTO, ENETDOWN, ENOPROTOOPT, EHOSTDOWN, ENONET, EHOSTUNREACH, EOPNOTSUPP, ENETUNREACH] {
            XCTAssertEqual(AcceptFailure(errno: e), .connectionGone, "\(e)")
        }
        XCTAssertEqual(AcceptFailure(errno: EMFILE), .outOfDescriptors)
        XCTAssertEqual(AcceptFailure(errno: ENFILE), .outOfDescriptors)
        for e in [ENOBUFS, ENOMEM, EPERM, EBADF, EINVAL, ENOTSOCK] {
            XCTAssertEqual(AcceptFailure(errno: e), .other, "\(e)")
        }
    }

    /// A listener keeps its reserve from the start, and nobody waiting is an ordinary outcome.
    func testAListenerHoldsItsReserveAndReportsNobodyWaiting() throws {
        let dir = "/tmp/pressured-accept-\(getpid())"
        mkdir(dir, 0o700)
        defer { rmdir(dir) }
        let listener = try UnixListener(path: dir + "/s.sock", group: nil)
        defer { listener.stop() }
        XCTAssertTrue(listener.hasReserve)
        guard case .nonePending = listener.accept(refusingWith: []) else { return XCTFail("someone waits?") }
        XCTAssertEqual(listener.failures, 0)
    }
}
