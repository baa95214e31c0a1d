import Glibc
import XCTest
@testable import PressureLinux

/// The daemon's listener over PressureSystem's ``AcceptGuard`` (whose own tests are in
/// PressureSystemTests): its reserve is held once it listens.
final class UnixListenerReserveTests: XCTestCase {
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
