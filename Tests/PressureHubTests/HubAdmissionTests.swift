@testable import PressureCore
@testable import PressureHub
import XCTest

/// The client cap (`MaxClients`): read from the configuration, decided by the hub, and a newcomer past it
/// told why while the clients connected go on as before.
final class HubAdmissionTests: XCTestCase {
    func configuration(_ text: String, file: String = "limits.conf") throws -> Configuration {
        try Configuration.parse(text, file: file)
    }

    func testMaxClientsParsesWithADefaultAndTheLastSectionWins() throws {
        XCTAssertEqual(Configuration().maximumClients, Configuration.defaultMaximumClients)
        XCTAssertEqual(try configuration("[pressured]\nMaxClients = 3\n").maximumClients, 3)
        let merged = Configuration.merged([
            try configuration("[pressured]\nMaxClients = 3\n", file: "a.conf"),
            try configuration("[pressured]\nSensitivity = firm\n", file: "b.conf"),
            try configuration("[pressured]\nMaxClients = 4096\n", file: "c.conf"),
        ])
        XCTAssertEqual(merged.maximumClients, 4096)
        XCTAssertEqual(Configuration.merged(Array(merged.settingsSections.prefix(2)).map {
            Configuration(settingsSections: [$0])
        }).maximumClients, 3)
    }

    func testMaxClientsOutOfRangeOrNotANumberIsAnErrorAtItsLine() {
        for value in ["0", "4097", "-1", "many", ""] {
            XCTAssertThrowsError(try configuration("[pressured]\n\nMaxClients = \(value)\n"), value) { error in
                guard let e = error as? ConfigurationError else { return XCTFail("\(error)") }
                XCTAssertEqual(e.line, 3, value)
                XCTAssertTrue("\(e)".contains("MaxClients"), "\(e)")
            }
        }
        XCTAssertThrowsError(try configuration("[pressured]\nmaxclients = 2\n")) { error in
            XCTAssertTrue("\(error)".contains("did you mean MaxClients?"), "\(error)")
        }
    }

    /// At the cap the hub has no room: the newcomer gets one fatal `too-many-clients` line instead of
    /// `hello`, and the clients connected are untouched. A client leaving makes room again.
    func testANewcomerPastTheCapIsToldWhyAndTheOthersAreUntouched() throws {
        var hub = Hub(configuration: try configuration("[pressured]\nMaxClients = 2\n"))
        XCTAssertTrue(hub.hasRoomForClient)
        let a = hub.connect(mayControl: false)
        let b = hub.connect(mayControl: false)
        _ = hub.drainedLines(a)
        _ = hub.drainedLines(b)
        _ = hub.takeWork()
        XCTAssertFalse(hub.hasRoomForClient)
        let line = hub.refuseNewcomer(peer: PeerIdentity(uid: 1000, gid: 100))
        guard case .error(let e) = try ServerMessage(json: JSONParser.parse(Array(line.dropLast()))) else {
            return XCTFail(String(decoding: line, as: UTF8.self))
        }
        XCTAssertEqual(line.last, UInt8(ascii: "\n"))
        XCTAssertEqual(e.code, .tooManyClients)
        XCTAssertTrue(e.fatal)
        XCTAssertTrue(e.message.contains("2 clients are connected, as many as MaxClients = 2 allows"), e.message)
        let work = hub.takeWork()
        XCTAssertEqual(work.notices, [.client(
            "turned a client away (uid 1000 gid 100): 2 clients are connected, as many as MaxClients = 2 allows")])
        XCTAssertTrue(work.disconnects.isEmpty)
        XCTAssertEqual(hub.status.clients, 2)
        XCTAssertEqual(hub.drainedLines(a), [])
        hub.disconnected(b)
        XCTAssertTrue(hub.hasRoomForClient)
    }

    /// A reload that lowers the cap below the clients connected keeps them all; newcomers wait for room.
    func testAReloadThatLowersTheCapKeepsEveryClient() throws {
        var hub = Hub(configuration: try configuration("[pressured]\nMaxClients = 3\n"))
        let ids = (0..<3).map { _ in hub.connect(mayControl: false) }
        hub.reload(try configuration("[pressured]\nMaxClients = 1\n"), answering: nil)
        XCTAssertEqual(hub.maximumClients, 1)
        XCTAssertTrue(hub.takeWork().disconnects.isEmpty)
        XCTAssertEqual(hub.status.clients, 3)
        XCTAssertFalse(hub.hasRoomForClient)
        hub.disconnected(ids[0])
        hub.disconnected(ids[1])
        XCTAssertFalse(hub.hasRoomForClient)
        hub.disconnected(ids[2])
        XCTAssertTrue(hub.hasRoomForClient)
    }

    /// Lines about clients are tagged so the loop can hold a flood of them back: connecting, hanging up
    /// and being refused among them; the daemon's own doings are not.
    func testLinesAboutClientsAreTaggedForTheBudget() throws {
        var hub = Hub(configuration: Configuration())
        let c = hub.connect(peer: PeerIdentity(uid: 1000, gid: 1000))
        hub.receive(client: c, line: Array(#"{"request":"reload","id":1}"#.utf8)[...], now: Timestamp(microseconds: 0))
        hub.disconnected(c)
        let notices = hub.takeWork().notices
        XCTAssertEqual(notices.count, 3, "\(notices)")
        for n in notices {
            guard case .client = n else { return XCTFail("\(n) is not tagged as a line about a client") }
        }
    }
}
