import Glibc
import PressureClient
import XCTest

@testable import PressureTools

/// The command line the daemon's client tools share, read directly: what runs, with which socket and
/// flags, and what exits with which status (0 for help, 2 for bad usage).
final class DaemonToolOptionsTests: XCTestCase {
    func parse(_ arguments: [String], flags: [String] = ["--json"]) -> DaemonToolOptions.Parsed {
        DaemonToolOptions.parse(arguments, command: "test", usage: "usage: pressurectl test", flags: flags)
    }

    func options(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> DaemonToolOptions? {
        guard case .run(let o) = parse(arguments) else {
            XCTFail("\(arguments) did not run", file: file, line: line)
            return nil
        }
        return o
    }

    func status(_ arguments: [String]) -> Int32? {
        if case .exit(let status) = parse(arguments) { return status }
        return nil
    }

    func testTheSocketComesFromTheOptionElseTheEnvironmentElseTheSystem() {
        let saved = getenv("PRESSURED_SOCKET").map { String(cString: $0) }
        defer { if let saved { setenv("PRESSURED_SOCKET", saved, 1) } else { unsetenv("PRESSURED_SOCKET") } }
        unsetenv("PRESSURED_SOCKET")
        XCTAssertEqual(options([])?.socketPath, PressuredConnection.defaultSocketPath)
        XCTAssertEqual(PressuredConnection.defaultSocketPath, "/run/pressured/pressured.sock")
        setenv("PRESSURED_SOCKET", "/tmp/env.sock", 1)
        XCTAssertEqual(options([])?.socketPath, "/tmp/env.sock")
        XCTAssertEqual(options(["--socket", "/tmp/given.sock"])?.socketPath, "/tmp/given.sock")
        XCTAssertEqual(options(["--socket=/tmp/given.sock"])?.socketPath, "/tmp/given.sock")
    }

    func testTheToolsOwnFlagsAreReportedWhereverTheyStand() {
        XCTAssertEqual(options([])?.flags, [])
        XCTAssertEqual(options(["--json"])?.flags, ["--json"])
        let o = options(["--socket", "/s", "--json"])
        XCTAssertEqual(o?.flags, ["--json"])
        XCTAssertEqual(o?.socketPath, "/s")
    }

    func testHelpIsZeroAndBadUsageIsTwo() {
        XCTAssertEqual(status(["--help"]), 0)
        XCTAssertEqual(status(["-h", "--json"]), 0)
        XCTAssertEqual(status(["--touches"]), 2, "another tool's flag")
        XCTAssertEqual(status(["now"]), 2, "no arguments")
        XCTAssertEqual(status(["--socket"]), 2, "no value")
        XCTAssertEqual(status(["--socket", "a", "--socket", "b"]), 2, "twice")
        XCTAssertEqual(
            { if case .exit(2) = DaemonToolOptions.parse(["--json"], command: "reload", usage: "u", flags: []) { true } else { false } }(),
            true, "a flag the tool does not take")
    }
}
