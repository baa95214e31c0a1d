import Glibc
import XCTest

@testable import PressureLinux

/// The funnel every call goes through: the failure conventions, `EINTR` retried, `EAGAIN` ordinary only
/// where the call is non-blocking.
final class SyscallTests: XCTestCase {
    /// A call that fails with each of `errnos` in turn (-1 and errno set), then returns `result`.
    final class Scripted {
        var errnos: [Int32]
        let result: Int
        var calls = 0
        init(failing errnos: [Int32], then result: Int) {
            self.errnos = errnos
            self.result = result
        }
        func call() -> Int {
            calls += 1
            guard !errnos.isEmpty else { return result }
            errno = errnos.removeFirst()
            return -1
        }
    }

    func testSuccessPassesTheResultThrough() throws {
        let s = Scripted(failing: [], then: 42)
        XCTAssertEqual(try syscall("read", "x") { s.call() }, 42)
        XCTAssertEqual(try nonblockingSyscall("read", "x") { s.call() }, 42)
        XCTAssertEqual(s.calls, 2)
    }

    func testInterruptedCallsAreRetried() throws {
        let s = Scripted(failing: [EINTR, EINTR], then: 7)
        XCTAssertEqual(try syscall("read") { s.call() }, 7)
        XCTAssertEqual(s.calls, 3)
        let n = Scripted(failing: [EINTR], then: 5)
        XCTAssertEqual(try nonblockingSyscall("read") { n.call() }, 5)
        XCTAssertEqual(n.calls, 2)
    }

    func testFailureBecomesATypedErrorNamingCallAndSubject() {
        let s = Scripted(failing: [EINTR, EBADF], then: 0)
        XCTAssertThrowsError(try syscall("timerfd_settime", "timer") { s.call() }) { error in
            XCTAssertEqual(error as? SystemError, SystemError(call: "timerfd_settime", subject: "timer", errno: EBADF))
        }
        XCTAssertEqual(s.calls, 2)
    }

    func testWouldBlockIsOrdinaryOnlyForNonblockingCalls() throws {
        for e in [EAGAIN, EWOULDBLOCK] {
            XCTAssertNil(try nonblockingSyscall("read", "client") { Scripted(failing: [e], then: 1).call() })
        }
        XCTAssertThrowsError(try syscall("socket") { Scripted(failing: [EAGAIN], then: 1).call() }) { error in
            XCTAssertEqual((error as? SystemError)?.errno, EAGAIN)
        }
        XCTAssertThrowsError(try nonblockingSyscall("send", "client") { Scripted(failing: [EPIPE], then: 1).call() }) {
            error in XCTAssertEqual(error as? SystemError, SystemError(call: "send", subject: "client", errno: EPIPE))
        }
    }

    func testLibevdevsNegativeErrnoConvention() throws {
        var results: [Int32] = [-EINTR, 1]
        XCTAssertEqual(try nonblockingLibevdevCall("libevdev_next_event", "n") { results.removeFirst() }, 1)
        XCTAssertTrue(results.isEmpty, "-EINTR retried")
        XCTAssertEqual(try nonblockingLibevdevCall("libevdev_next_event", "n") { 0 }, 0)
        XCTAssertNil(try nonblockingLibevdevCall("libevdev_next_event", "n") { -EAGAIN })
        XCTAssertThrowsError(try nonblockingLibevdevCall("libevdev_next_event", "/dev/input/event3") { -ENODEV }) {
            error in
            XCTAssertEqual(
                error as? SystemError, SystemError(call: "libevdev_next_event", subject: "/dev/input/event3", errno: ENODEV))
        }
        // -1 is EPERM in this convention, not "look at errno".
        errno = EAGAIN
        XCTAssertThrowsError(try nonblockingLibevdevCall("libevdev_next_event", "n") { -1 }) { error in
            XCTAssertEqual((error as? SystemError)?.errno, EPERM)
        }
    }
}
