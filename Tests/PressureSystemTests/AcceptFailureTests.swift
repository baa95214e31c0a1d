import Glibc
import XCTest

@testable import PressureSystem

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
}
