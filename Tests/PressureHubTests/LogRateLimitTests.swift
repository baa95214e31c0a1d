@testable import PressureCore
@testable import PressureHub
import XCTest

/// The log budgets, on explicit times: what a window writes, what it holds back, when the summary comes
/// and what it says; a timer that fires late loses nothing, and an idle daemon is never woken.
final class LogRateLimitTests: XCTestCase {
    let second: Int64 = 1_000_000

    func testABudgetWritesThenHoldsBackAndSaysHowManyAtTheWindowsEnd() {
        var limit = LogRateLimit(budget: 2, windowMicroseconds: 10 * second)
        XCTAssertNil(limit.summaryDue)
        XCTAssertEqual((0..<5).map { limit.admit(now: 3 * second + Int64($0)) }, [true, true, false, false, false])
        XCTAssertEqual(limit.heldBack, 3)
        XCTAssertEqual(limit.summaryDue, 13 * second)
        XCTAssertNil(limit.takeHeldBack(now: 13 * second - 1))
        // Late: a line at the end is still this window's, and counted in it.
        XCTAssertFalse(limit.admit(now: 20 * second))
        XCTAssertEqual(limit.takeHeldBack(now: 20 * second), 4)
        XCTAssertNil(limit.summaryDue)
        XCTAssertNil(limit.takeHeldBack(now: 30 * second))
        // The next line begins a window of its own, with the whole budget.
        XCTAssertTrue(limit.admit(now: 31 * second))
        XCTAssertEqual(limit.windowStart, 31 * second)
    }

    func testAWindowWithinItsBudgetEndsQuietly() {
        var limit = LogRateLimit(budget: 2, windowMicroseconds: 10 * second)
        XCTAssertTrue(limit.admit(now: 0))
        XCTAssertTrue(limit.admit(now: 1))
        XCTAssertNil(limit.summaryDue)  // nothing held back: no wake-up for a summary
        XCTAssertNil(limit.takeHeldBack(now: 11 * second))
        XCTAssertTrue(limit.admit(now: 10 * second))  // over: another window, another budget
        XCTAssertTrue(limit.admit(now: 10 * second + 1))
        XCTAssertFalse(limit.admit(now: 10 * second + 2))
        XCTAssertEqual(limit.summaryDue, 20 * second)
    }

    func testTheClientLogSummarisesTheWindowThatHeldLinesBack() {
        var log = ClientActivityLog(windowMicroseconds: 60 * second)
        let budget = ClientActivityLog.linesPerWindow
        var written = 0
        for i in 0..<100 {
            let t = Int64(i) * 1000
            log.count(.connected, now: t)
            if log.admit(now: t) { written += 1 }
            if i < 99 {
                log.count(.left, now: t + 500)
                if log.admit(now: t + 500) { written += 1 }
            }
        }
        log.count(.refused, now: 200_000)
        XCTAssertEqual(written, budget)
        XCTAssertEqual(log.summaryDue, 60 * second)
        XCTAssertNil(log.takeSummary(now: 59 * second, connectedNow: 1))
        XCTAssertEqual(
            log.takeSummary(now: 60 * second, connectedNow: 1),
            "clients in the last 60 s: 100 connected, 99 left, 1 turned away (too-many-clients); 1 connected now; "
                + "\(199 - budget) lines about them at debug only (--verbose)")
        XCTAssertNil(log.summaryDue)
        // A calm spell after: each line is written, no summary comes, and the counts started afresh.
        log.count(.connected, now: 70 * second)
        XCTAssertTrue(log.admit(now: 70 * second))
        XCTAssertNil(log.summaryDue)
        for i in 0..<budget { _ = log.admit(now: 71 * second + Int64(i)) }
        XCTAssertEqual(
            log.takeSummary(now: 130 * second, connectedNow: 0),
            "clients in the last 60 s: 1 connected, 0 left, 0 turned away (too-many-clients); 0 connected now; "
                + "1 line about them at debug only (--verbose)")
    }

    /// A daemon that stops mid-window says what it held back, for the time the window lasted.
    func testAnEarlySummarySaysWhatTheWindowHeldBackSoFar() {
        var log = ClientActivityLog(windowMicroseconds: 60 * second)
        XCTAssertNil(log.takeSummary(now: 0, connectedNow: 0, early: true))  // nothing held back: nothing to say
        for i in 0...ClientActivityLog.linesPerWindow {
            log.count(.connected, now: 5 * second + Int64(i))
            _ = log.admit(now: 5 * second + Int64(i))
        }
        XCTAssertNil(log.takeSummary(now: 30 * second, connectedNow: 21))
        XCTAssertEqual(
            log.takeSummary(now: 30 * second + 5, connectedNow: 21, early: true),
            "clients in the last 25.0 s: 21 connected, 0 left, 0 turned away (too-many-clients); 21 connected now; "
                + "1 line about them at debug only (--verbose)")
        XCTAssertNil(log.summaryDue)
    }

    func testAWindowOfPartSecondsIsSaidAsSuch() {
        var log = ClientActivityLog(windowMicroseconds: 1_500_000)
        for i in 0...ClientActivityLog.linesPerWindow { _ = log.admit(now: Int64(i)) }
        XCTAssertEqual(log.takeSummary(now: 2 * second, connectedNow: 0)?.hasPrefix("clients in the last 1.5 s: "), true)
    }
}
