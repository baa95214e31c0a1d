import Glibc
import XCTest

@testable import PressureLinux

/// The daemon's client sockets by id: found whatever order they came and left in, iterated in id order.
final class ClientConnectionsTests: XCTestCase {
    /// A connection over a descriptor of its own (it closes it when it goes).
    private func connection() throws -> ClientConnection {
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(fd, 0)
        return ClientConnection(fd: fd)
    }

    func testConnectionsAreFoundByIdAndLeaveOnlyWhenRemoved() throws {
        var table = ClientConnections()
        let (a, b, c) = (try connection(), try connection(), try connection())
        table.insert(a, id: 1)
        table.insert(b, id: 2)
        table.insert(c, id: 7)
        XCTAssertEqual(table.count, 3)
        XCTAssertTrue(table[1] === a)
        XCTAssertTrue(table[2] === b)
        XCTAssertTrue(table[7] === c)
        XCTAssertNil(table[0])
        XCTAssertNil(table[3])
        XCTAssertNil(table[8])

        XCTAssertTrue(table.removeValue(forKey: 2) === b)
        XCTAssertNil(table.removeValue(forKey: 2), "gone already")
        XCTAssertNil(table[2])
        XCTAssertTrue(table[1] === a)
        XCTAssertTrue(table[7] === c)
        XCTAssertEqual(table.map(\.0), [1, 7])
    }

    func testAnIdOutOfOrderGoesInItsPlaceAndAnIdAgainReplaces() throws {
        var table = ClientConnections()
        let (a, b, c, d) = (try connection(), try connection(), try connection(), try connection())
        table.insert(a, id: 5)
        table.insert(b, id: 3)
        table.insert(c, id: 9)
        XCTAssertEqual(table.map(\.0), [3, 5, 9])
        XCTAssertTrue(zip(table.map(\.1), [b, a, c]).allSatisfy { $0 === $1 })
        table.insert(d, id: 5)
        XCTAssertEqual(table.count, 3)
        XCTAssertTrue(table[5] === d)
    }
}
