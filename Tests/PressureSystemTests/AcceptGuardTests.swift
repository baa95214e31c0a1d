import Glibc
import XCTest

@testable import PressureSystem

/// The guarded accept over a scripted `accept4` (``SyscallTests/Scripted``): each failure kind's
/// outcome, the reserve spent and taken back, and every call counted.
final class AcceptGuardTests: XCTestCase {
    typealias Scripted = SyscallTests.Scripted

    /// Runs one guarded accept over `script`; returns the outcome and the descriptors handed to `refuse`.
    func accept(_ g: AcceptGuard, _ script: Scripted) -> (GuardedAccept<Int32>, refused: [Int32]) {
        var refused: [Int32] = []
        let outcome = g.accept("test", { Int32(script.call()) }, refuse: { refused.append($0) })
        return (outcome, refused)
    }

    func testAConnectionIsAcceptedAndNobodyWaitingIsOrdinary() {
        let g = AcceptGuard()
        XCTAssertEqual(accept(g, Scripted(failing: [], then: 9)).0, .accepted(9))
        XCTAssertEqual(accept(g, Scripted(failing: [EAGAIN], then: 0)).0, .nonePending)
        XCTAssertEqual([g.attempts, g.failures], [2, 0])
    }

    /// A connection gone before it was taken is passed over: the next is taken at once.
    func testAConnectionGoneIsPassedOver() {
        let g = AcceptGuard()
        XCTAssertEqual(accept(g, Scripted(failing: [ECONNABORTED, EPROTO], then: 5)).0, .accepted(5))
        XCTAssertEqual([g.attempts, g.failures], [3, 2])
    }

    /// At `EMFILE` the reserve is spent on the connection (handed to `refuse`), then taken back.
    func testOutOfDescriptorsRefusesOnTheReserveAndTakesItBack() {
        let g = AcceptGuard()
        XCTAssertTrue(g.restoreReserve())
        defer { g.releaseReserve() }
        let (outcome, refused) = accept(g, Scripted(failing: [EMFILE], then: 12))
        XCTAssertEqual(outcome, .refused(SystemError(call: "accept4", subject: "test", errno: EMFILE)))
        XCTAssertEqual(refused, [12])
        XCTAssertTrue(g.hasReserve)
        XCTAssertEqual([g.attempts, g.failures], [2, 1])
    }

    /// Linux's accept4 says `EMFILE` with nobody waiting too: the reserve's call finds nobody, and no one
    /// is refused.
    func testOutOfDescriptorsWithNobodyWaitingRefusesNoOne() {
        let g = AcceptGuard()
        XCTAssertTrue(g.restoreReserve())
        defer { g.releaseReserve() }
        let (outcome, refused) = accept(g, Scripted(failing: [EMFILE, EAGAIN], then: 0))
        XCTAssertEqual(outcome, .nonePending)
        XCTAssertEqual(refused, [])
        XCTAssertTrue(g.hasReserve)
    }

    /// Without a reserve, or for a failure that may last, accepting cannot go on: the loop rests the listener.
    func testWithoutAReserveOrForOtherFailuresAcceptingIsUnavailable() {
        let g = AcceptGuard()  // holds no reserve until asked
        XCTAssertFalse(g.hasReserve)
        XCTAssertEqual(accept(g, Scripted(failing: [ENFILE], then: 3)).0,
                       .unavailable(SystemError(call: "accept4", subject: "test", errno: ENFILE)))
        XCTAssertEqual(accept(g, Scripted(failing: [ENOBUFS], then: 3)).0,
                       .unavailable(SystemError(call: "accept4", subject: "test", errno: ENOBUFS)))
        XCTAssertEqual(g.failures, 2)
    }

    /// A connection wrapped keeps its outcome.
    func testMapWrapsOnlyTheAcceptedConnection() {
        XCTAssertEqual(GuardedAccept<Int32>.accepted(4).map { "fd \($0)" }, .accepted("fd 4"))
        XCTAssertEqual(GuardedAccept<Int32>.nonePending.map { "fd \($0)" }, .nonePending)
    }
}
