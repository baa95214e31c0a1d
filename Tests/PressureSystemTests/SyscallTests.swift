import Glibc
import XCTest

@testable import PressureSystem

/// The funnel every call goes through: the failure conventions, `EINTR` retried, `EAGAIN` ordinary only
/// where the call is non-blocking; and the timerfd and signalfd that use it.
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

    /// Waits (for at most 10 s) until `fd` is readable: a wait on the condition, not a sleep.
    func waitReadable(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 10_000) == 1
    }

    func testTimerAcknowledgedBeforeItExpiredIsNotAnError() throws {
        let timer = try DeadlineTimer(name: "test timer")
        XCTAssertNoThrow(try timer.acknowledge(), "nothing to consume yet: EAGAIN is ordinary")
        try timer.arm(atMonotonicMicroseconds: 1)  // long past: expires at once
        XCTAssertTrue(waitReadable(timer.fd))
        XCTAssertNoThrow(try timer.acknowledge())
        var p = pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 0), 0, "acknowledged: no longer readable")
        XCTAssertNoThrow(try timer.acknowledge(), "and a second acknowledgement finds nothing, without error")
        try timer.arm(atMonotonicMicroseconds: nil)
    }

    /// The loops arm their timer every iteration: a deadline armed already is not set again, but one that
    /// fired and was acknowledged is, even at the same time.
    func testTimerRemembersItsDeadlineAndRearmsAfterFiring() throws {
        let timer = try DeadlineTimer(name: "test timer")
        XCTAssertNil(timer.armedAt)
        try timer.arm(atMonotonicMicroseconds: 1)
        XCTAssertEqual(timer.armedAt, 1)
        XCTAssertTrue(waitReadable(timer.fd))
        try timer.acknowledge()
        XCTAssertNil(timer.armedAt, "fired and acknowledged: nothing armed")
        try timer.arm(atMonotonicMicroseconds: 1)
        XCTAssertTrue(waitReadable(timer.fd), "the same deadline again is armed again")
        try timer.acknowledge()
        let later = monotonicMicroseconds() + 3_600_000_000
        try timer.arm(atMonotonicMicroseconds: later)
        try timer.arm(atMonotonicMicroseconds: later)
        XCTAssertEqual(timer.armedAt, later)
        try timer.arm(atMonotonicMicroseconds: nil)
        XCTAssertNil(timer.armedAt)
        var p = pollfd(fd: timer.fd, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&p, 1, 0), 0, "disarmed")
    }

    func testEverySignalArrivesThenReceiveReturns() throws {
        // Thread-directed (raise), so the signals wait for this thread, which blocked them.
        let watcher = try SignalWatcher(signals: [SIGUSR1, SIGUSR2])
        raise(SIGUSR2)
        raise(SIGUSR1)
        XCTAssertTrue(waitReadable(watcher.fd))
        var got: [Int32] = []
        try watcher.receive { got.append($0) }
        XCTAssertEqual(Set(got), [SIGUSR1, SIGUSR2])
        got = []
        try watcher.receive { got.append($0) }
        XCTAssertEqual(got, [], "nothing pending: receive returns without blocking")
    }
}
