@testable import PressureCore
@testable import PressureHub
import XCTest

/// ``RequestHandler``: every row of its table, decided with identities and settings written down.
final class RequestHandlerTests: XCTestCase {
    struct Directory: AccountDirectory {
        func userID(named name: String) -> UInt32? { ["mail": 1001][name] }
        func groupID(named name: String) -> UInt32? { nil }
    }

    static let root = PeerIdentity.root
    static let stranger = PeerIdentity(uid: 1003, gid: 100)
    static let mail = PeerIdentity(uid: 1001, gid: 100)

    func handler(_ text: String = "") throws -> RequestHandler {
        let configuration = try Configuration.parse(text, file: "t.conf").resolvingAccounts(Directory())
        return RequestHandler(settings: HubSettings(configuration: configuration, daemonUser: 999))
    }

    static let closedMail = """
        [app org.example.mail]
        User = mail
        QuickAction1 = compose | New Message
        """

    func item(_ id: String) -> QuickActionItem { QuickActionItem(id: id, title: id) }

    func isRefusal(_ d: RequestHandler.Decision) -> Bool {
        if case .refuse = d { return true }
        return false
    }

    func testControlRequestsFromAPeerThatMayNotControlAreRefused() throws {
        let h = try handler()
        for request in [ClientRequest.set(SettingsChange(forceTouch: false)), .reload, .resetLearning(device: nil)] {
            XCTAssertTrue(isRefusal(h.decide(request, from: 1, peer: Self.stranger, subscription: nil)), "\(request)")
        }
        XCTAssertEqual(h.decide(.reload, from: 1, peer: Self.root, subscription: nil), .reload)
        XCTAssertEqual(
            h.decide(.resetLearning(device: 3), from: 1, peer: PeerIdentity(uid: 999, gid: 999), subscription: nil),
            .resetLearning(device: 3), "the daemon's own user may control")
    }

    func testSubscribingAsAClosedAppIsForItsUsers() throws {
        let h = try handler(Self.closedMail)
        var sub = Subscription(gestures: true, touches: true)
        sub.app = "org.example.mail"
        XCTAssertTrue(isRefusal(h.decide(.subscribe(sub), from: 1, peer: Self.stranger, subscription: nil)))
        XCTAssertEqual(h.decide(.subscribe(sub), from: 1, peer: Self.mail, subscription: nil), .subscribe(sub))
        let plain = Subscription()
        XCTAssertEqual(h.decide(.subscribe(plain), from: 1, peer: Self.stranger, subscription: nil), .subscribe(plain))
    }

    func testASetRegionIsOwnedByTheRequesterWithItsMenuCut() throws {
        let h = try handler()
        let items = (1...6).map { item("i\($0)") } + [item("i1")]
        let region = Region(id: "tile", owner: 77, x: 0, y: 0, width: 10, height: 10, items: items)
        guard case .setRegion(let kept, let cut) = h.decide(.setRegion(region), from: 4, peer: Self.stranger, subscription: nil)
        else { return XCTFail("not a setRegion") }
        XCTAssertEqual(kept.owner, 4)
        XCTAssertEqual(kept.items.map(\.id), ["i1", "i2", "i3", "i4"])
        XCTAssertEqual(cut, ["i5", "i6", "i1"])
    }

    func testRemoveRegionIsLeftToTheHub() throws {
        XCTAssertEqual(try handler().decide(.removeRegion(id: "x"), from: 1, peer: Self.stranger, subscription: nil), .removeRegion("x"))
    }

    func testQuickActionsNeedAnAppTheyMayBeAndKeepWhatTheIconShows() throws {
        let h = try handler(Self.closedMail)
        let items = (1...5).map { item("d\($0)") }
        guard case .invalid = h.decide(.setQuickActions(items), from: 1, peer: Self.mail, subscription: Subscription())
        else { return XCTFail("quick actions before subscribing with an app") }
        // A reload took the app: refused, whether the configuration still closes it or has opened it since.
        XCTAssertTrue(isRefusal(h.decide(.setQuickActions(items), from: 1, peer: Self.stranger, subscription: Subscription(), revokedApp: "org.example.mail")))
        XCTAssertTrue(isRefusal(h.decide(.setQuickActions(items), from: 1, peer: Self.mail, subscription: Subscription(), revokedApp: "org.example.mail")))
        var sub = Subscription()
        sub.app = "org.example.mail"
        XCTAssertTrue(isRefusal(h.decide(.setQuickActions(items), from: 1, peer: Self.stranger, subscription: sub)))
        // The static item comes first: three dynamic ones fit beside it.
        XCTAssertEqual(
            h.decide(.setQuickActions(items), from: 1, peer: Self.mail, subscription: sub),
            .setQuickActions(
                app: "org.example.mail", kept: Array(items.prefix(3)), shown: ["compose", "d1", "d2", "d3"],
                cut: ["d4", "d5"]))
    }

    func testChoosingForAClosedAppIsForItsUsersAndRoot() throws {
        let h = try handler(Self.closedMail)
        let choose = ClientRequest.chooseAction(app: "org.example.mail", action: "compose")
        XCTAssertTrue(isRefusal(h.decide(choose, from: 1, peer: Self.stranger, subscription: nil)))
        XCTAssertEqual(h.decide(choose, from: 1, peer: Self.root, subscription: nil), .chooseAction(app: "org.example.mail", action: "compose"))
        XCTAssertEqual(h.decide(choose, from: 1, peer: Self.mail, subscription: nil), .chooseAction(app: "org.example.mail", action: "compose"))
    }

    func testSetGivesTheSettingsItMakesAndNeverHapticsWhereTheyAreOff() throws {
        var expected = try handler().settings.settings
        expected.sensitivity = .firm
        XCTAssertEqual(try handler().decide(.set(SettingsChange(sensitivity: .firm)), from: 1, peer: Self.root, subscription: nil), .set(expected))
        let off = try handler("[haptics]\nHaptics = off\n")
        guard case .set(let s) = off.decide(.set(SettingsChange(haptics: true)), from: 1, peer: Self.root, subscription: nil)
        else { return XCTFail("not a set") }
        XCTAssertFalse(s.hapticsEnabled)
    }

    func testQueriesAreAnsweredFromTheHubsState() throws {
        let h = try handler()
        XCTAssertEqual(h.decide(.devices, from: 1, peer: Self.stranger, subscription: nil), .devices)
        XCTAssertEqual(h.decide(.ping, from: 1, peer: Self.stranger, subscription: nil), .ping)
        XCTAssertEqual(h.decide(.status, from: 1, peer: Self.stranger, subscription: nil), .status)
    }
}
