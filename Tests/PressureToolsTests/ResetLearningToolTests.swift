import Glibc
import PressureClient
import XCTest

@testable import PressureTools

/// `pressurectl calibrate --reset`: what it says for the daemon's answers, what advice it gives when the
/// daemon cannot be reached or refuses, and the usage it refuses before connecting.
final class ResetLearningToolTests: XCTestCase {
    func testWhatItSaysForTheDevicesReset() {
        XCTAssertEqual(ResetLearningTool.summary(reset: [3]), "forgot what device 3 learned; learning afresh")
        XCTAssertEqual(ResetLearningTool.summary(reset: [1, 2, 5]), "forgot what devices 1, 2, 5 learned; learning afresh")
        XCTAssertEqual(
            ResetLearningTool.summary(reset: []),
            "nothing to reset: no device learns its average touch (configured, or LearnAverageTouch = off)")
    }

    func testTheAdviceForEachFailure() {
        func explain(_ e: PressuredClientError) -> String {
            DaemonConnectionAdvice.explain(e, path: "/s", request: "resetLearning")
        }
        XCTAssertEqual(
            explain(.cannotConnect(path: "/s", errno: ENOENT)),
            "cannot connect to /s: No such file or directory; is pressured running? (`systemctl status pressured`; "
                + "for another socket give --socket PATH or set PRESSURED_SOCKET)")
        XCTAssertTrue(explain(.cannotConnect(path: "/s", errno: ECONNREFUSED)).hasSuffix("set PRESSURED_SOCKET)"))
        XCTAssertEqual(
            explain(.cannotConnect(path: "/s", errno: EACCES)),
            "cannot connect to /s: Permission denied; join the daemon's group (pressured --group) or run as root")
        XCTAssertEqual(
            explain(.daemon(code: "not-permitted", message: "resetLearning is a control request", fatal: false)),
            "the daemon refused: resetLearning is a control request; resetLearning is for root and the daemon's group "
                + "(pressured --group): join it or use sudo")
        XCTAssertEqual(
            explain(.daemon(code: "reload-failed", message: "a.conf:3: bad", fatal: false)),
            "the daemon kept its old configuration: a.conf:3: bad; fix the file and run `pressurectl reload` again")
        XCTAssertEqual(explain(.daemon(code: "invalid-argument", message: "no device 9", fatal: false)),
                       "invalid-argument: no device 9")
        XCTAssertEqual(explain(.timedOut("hello")), "timed out: hello")
    }

    /// Refused before any connection is tried (the socket named does not exist: a try would be status 1).
    func testBadUsageIsTwoWithoutConnecting() {
        let nowhere = ["--socket", "/nonexistent/pressured.sock"]
        XCTAssertEqual(ResetLearningTool.main(["--reset", "--device", "0"] + nowhere), 2, "ids start at 1")
        XCTAssertEqual(ResetLearningTool.main(["--reset", "--device", "x"] + nowhere), 2)
        XCTAssertEqual(ResetLearningTool.main(["--reset", "--device", "1", "--device", "2"] + nowhere), 2)
        XCTAssertEqual(ResetLearningTool.main(["--reset", "--device"] + nowhere), 2)
        XCTAssertEqual(ResetLearningTool.main(["--reset", "--json"] + nowhere), 2)
        XCTAssertEqual(ResetLearningTool.main(["--reset", "--help"]), 0)
        XCTAssertEqual(ResetLearningTool.main(["--reset", "--device", "1"] + nowhere), 1, "well formed: it tried")
    }
}
