import DeviceTestSupport
import XCTest
@testable import PressureCore

/// The configuration's say on who may do what: `ControlGroup`, `LauncherUser`, `LauncherGroup` in
/// `[pressured]`, `User` and `Group` in `[app ID]`; how they merge, and names resolved to ids.
final class ConfigurationAccessTests: XCTestCase {
    struct Directory: AccountDirectory {
        func userID(named name: String) -> UInt32? { ["mail": 1001, "kiosk": 1002][name] }
        func groupID(named name: String) -> UInt32? { ["wheel": 10, "mail-apps": 2001][name] }
    }

    func error(_ text: String, resolving: Bool = false) -> ConfigurationError? {
        do {
            let c = try Configuration.parse(text, file: "a.conf")
            if resolving { _ = try c.resolvingAccounts(Directory()) }
            XCTFail("accepted \(text)")
            return nil
        } catch {
            return error
        }
    }

    func testKeysParseNamesAndNumbers() throws {
        let c = try Configuration.parse("""
            [pressured]
            ControlGroup = wheel 4
            LauncherUser = kiosk
            LauncherGroup = 77
            [app org.example.mail]
            User = mail  1005
            Group = mail-apps
            QuickAction1 = compose | New Message
            """, file: "a.conf").resolvingAccounts(Directory())
        XCTAssertEqual(c.controlGroups.map(\.id), [10, 4])
        XCTAssertEqual(c.launchers.users.map(\.id), [1002])
        XCTAssertEqual(c.launchers.groups.map(\.id), [77])
        let access = try XCTUnwrap(c.access(forApp: "org.example.mail"))
        XCTAssertEqual(access.rule.users.map(\.text), ["mail", "1005"])
        XCTAssertEqual(access.rule.users.map(\.id), [1001, 1005])
        XCTAssertEqual(access.rule.names, "user mail, user 1005, group mail-apps")
        XCTAssertEqual(access.section.line, 5)
        XCTAssertTrue(access.rule.matches(PeerIdentity(uid: 1005, gid: 1)))
        XCTAssertTrue(access.rule.matches(PeerIdentity(uid: 7, gid: 1, groups: [2001])))
        XCTAssertFalse(access.rule.matches(PeerIdentity(uid: 7, gid: 1, groups: [10])))
        XCTAssertEqual(c.staticQuickActions(forApp: "org.example.mail").map(\.id), ["compose"])
        XCTAssertNil(c.access(forApp: "org.example.other"), "no section: open")
        XCTAssertTrue(Configuration().launchers.isEmpty)
    }

    /// Quick actions and identity merge apart: a later section that only says who the app is keeps the
    /// items, and one that only lists items keeps the identity (it does not open a closed app).
    func testLaterSectionsMergeItemsAndIdentitySeparately() throws {
        let shipped = try Configuration.parse("[app m]\nQuickAction1 = a | A\n", file: "10-shipped.conf")
        let closed = try Configuration.parse("[app m]\nUser = 1001\n", file: "20-local.conf")
        let items = try Configuration.parse("[app m]\nQuickAction1 = b | B\n", file: "30-more.conf")
        let c = Configuration.merged([shipped, closed, items])
        XCTAssertEqual(c.staticQuickActions(forApp: "m").map(\.id), ["b"])
        XCTAssertEqual(c.access(forApp: "m")?.rule.users.map(\.id), [1001])
        XCTAssertEqual(c.access(forApp: "m")?.section.file, "20-local.conf")
        let reclosed = try Configuration.parse("[app m]\nGroup = 5\n", file: "40-group.conf")
        XCTAssertEqual(Configuration.merged([c, reclosed]).access(forApp: "m")?.rule.names, "group 5", "the last that says wins")
    }

    func testErrorsNameTheLine() {
        XCTAssertEqual(error("[pressured]\nControlGroup =\n")?.line, 2)
        let big = error("[app m]\nUser = 4294967295\n")
        XCTAssertEqual(big?.line, 2)
        XCTAssertTrue(big?.description.contains("numeric ids from 0 to 4294967294") ?? false, "\(String(describing: big))")
        let bad = error("[app m]\n\nGroup = mail 9lives\n")
        XCTAssertEqual(bad?.line, 3)
        XCTAssertTrue(bad?.description.contains("expected group names or numeric ids separated by spaces") ?? false)
        let unknown = error("[app m]\nuser = mail\n")
        XCTAssertEqual(unknown?.reason, .unknownAppKey(key: "user", app: "m"))
        XCTAssertEqual(
            unknown?.description,
            "a.conf:2: unknown key user in [app m]: expected one of QuickAction1, QuickAction2, QuickAction3, "
                + "QuickAction4, User, Group (keys are case-sensitive: did you mean User?)")
        XCTAssertTrue(error("[Panel]\nMatchBus=usb\nControlGroup=wheel\n")?.description.contains("belongs in [pressured]") ?? false)
    }

    /// The sample file parses as shipped and with every commented-out key and header taken in.
    func testTheSampleFileParsesWithEveryKeyUncommented() throws {
        let text = try String(contentsOf: FixtureFiles.repoRoot.appendingPathComponent("docs/pressured.conf"), encoding: .utf8)
        XCTAssertNoThrow(try Configuration.parse(text, file: "pressured.conf"))
        let all = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("#"), let c = line.dropFirst().first, c.isLetter || c == "[" { return String(line.dropFirst()) }
            return String(line)
        }.joined(separator: "\n")
        let c = try Configuration.parse(all, file: "pressured.conf")
        XCTAssertEqual(c.controlGroups.map(\.text), ["pressured-admin"])
        XCTAssertEqual(c.launchers.names, "user kiosk, group launchers")
        XCTAssertEqual(c.access(forApp: "org.example.mail")?.rule.names, "user mail, group mail-helpers")
        XCTAssertEqual(c.staticQuickActions(forApp: "org.example.mail").count, 2)
    }

    /// A name the system does not know is an error at its file and line, not an app closed to everyone.
    func testAnUnknownNameIsAnErrorAtItsLine() {
        let e = error("[pressured]\nLauncherUser = kiosk\n\n[app m]\nUser = mail nosuchuser\n", resolving: true)
        XCTAssertEqual(e?.file, "a.conf")
        XCTAssertEqual(e?.line, 5)
        XCTAssertEqual(
            e?.message,
            "User names the user 'nosuchuser', which this system does not know: expected an existing user name or a numeric id")
        XCTAssertEqual(error("[pressured]\nControlGroup = admins\n", resolving: true)?.line, 2)
    }
}
