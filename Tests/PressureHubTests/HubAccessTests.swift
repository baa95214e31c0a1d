@testable import PressureCore
@testable import PressureHub
import XCTest

/// Who may do what (``AccessPolicy``), with identities written down as values: control, being an app,
/// choosing for one, and what a reload changes for clients already connected.
final class HubAccessTests: XCTestCase {
    /// Users and groups of the configuration below, by id.
    static let mailUser: UInt32 = 1001, kioskUser: UInt32 = 1002, strangerUser: UInt32 = 1003
    static let mailGroup: UInt32 = 2001, launcherGroup: UInt32 = 2002, adminGroup: UInt32 = 2003

    struct Directory: AccountDirectory {
        func userID(named name: String) -> UInt32? { ["mail": mailUser, "kiosk": kioskUser][name] }
        func groupID(named name: String) -> UInt32? {
            ["mail-apps": mailGroup, "launchers": launcherGroup, "pressured-admin": adminGroup][name]
        }
    }

    static let closedMail = """
        [pressured]
        ControlGroup = pressured-admin
        [app org.example.mail]
        User = mail
        Group = mail-apps
        QuickAction1 = compose | New Message
        """

    var hub = Hub(configuration: Configuration())

    func configuration(_ text: String) throws -> Configuration {
        try Configuration.parse(text, file: "access.conf").resolvingAccounts(Directory())
    }

    func send(_ c: Int, _ json: String) {
        hub.receive(client: c, line: Array(json.utf8)[...], now: Timestamp(microseconds: 0))
    }

    func lines(_ c: Int) -> [String] { hub.drainedLines(c) }

    /// The answer to `json`, sent by `c` (the first line it gets after it).
    func answer(_ c: Int, _ json: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        _ = lines(c)
        send(c, json)
        let got = lines(c)
        XCTAssertFalse(got.isEmpty, "no answer to \(json)", file: file, line: line)
        return got.first ?? ""
    }

    func refused(_ answer: String) -> Bool { answer.contains(#""error":"not-permitted""#) }

    func peer(_ uid: UInt32, _ gid: UInt32 = 100, _ groups: [UInt32] = []) -> Int {
        let c = hub.connect(peer: PeerIdentity(uid: uid, gid: gid, groups: groups))
        _ = lines(c)
        return c
    }

    func testControlIsForRootTheDaemonsUserAndTheControlGroup() throws {
        hub = Hub(configuration: try configuration(Self.closedMail), daemonUser: 999)
        let set = #"{"request":"set","id":1,"sensitivity":"firm"}"#
        let stranger = answer(peer(Self.strangerUser), set)
        XCTAssertTrue(refused(stranger), stranger)
        XCTAssertTrue(stranger.contains(#""id":1"#) && stranger.contains("this connection is uid 1003 gid 100"), stranger)
        for allowed in [peer(0, 0), peer(999), peer(Self.strangerUser, Self.adminGroup), peer(Self.strangerUser, 100, [7, Self.adminGroup])] {
            let a = answer(allowed, set)
            XCTAssertTrue(a.hasPrefix(#"{"type":"reply","id":1,"request":"set""#), a)
        }
        for request in [#"{"request":"reload"}"#, #"{"request":"resetLearning"}"#] {
            XCTAssertTrue(refused(answer(peer(Self.strangerUser), request)), request)
        }
        XCTAssertEqual(hub.takeWork().reloads.count, 0)
        // Without a ControlGroup, only root and the daemon's user.
        hub = Hub(configuration: Configuration(), daemonUser: 999)
        XCTAssertTrue(refused(answer(peer(Self.strangerUser, Self.adminGroup), set)))
        XCTAssertFalse(refused(answer(peer(999), set)))
    }

    func testAClosedAppIsOnlyItsUsersAndGroups() throws {
        hub = Hub(configuration: try configuration(Self.closedMail))
        let subscribe = #"{"request":"subscribe","id":"s","app":"org.example.mail"}"#
        let stranger = peer(Self.strangerUser)
        let refusal = answer(stranger, subscribe)
        XCTAssertTrue(refused(refusal), refusal)
        XCTAssertTrue(refusal.contains(#"only user mail, group mail-apps may be it ([app org.example.mail] access.conf:3)"#), refusal)
        XCTAssertNil(hub.clients.subscription(of: stranger), "the refused subscription is not in force")
        XCTAssertTrue(answer(stranger, #"{"request":"setQuickActions","items":[]}"#).contains("subscribe with an 'app'"),
                      "not subscribed as the app at all: told to subscribe first")
        for allowed in [peer(Self.mailUser), peer(Self.strangerUser, Self.mailGroup), peer(Self.strangerUser, 100, [Self.mailGroup]), peer(0, 0)] {
            XCTAssertTrue(answer(allowed, subscribe).hasPrefix(#"{"type":"reply","id":"s","request":"subscribe""#))
            XCTAssertFalse(refused(answer(allowed, #"{"request":"setQuickActions","items":[{"id":"a","title":"A"}]}"#)))
        }
        // An app without User or Group stays open to anyone, as before.
        XCTAssertFalse(refused(answer(stranger, #"{"request":"subscribe","app":"org.example.open"}"#)))
        XCTAssertFalse(refused(answer(stranger, #"{"request":"setQuickActions","items":[{"id":"a","title":"A"}]}"#)))
        XCTAssertFalse(refused(answer(peer(PeerIdentity.unknown.uid, PeerIdentity.unknown.gid), #"{"request":"subscribe","app":"org.example.open"}"#)))
        XCTAssertTrue(refused(answer(peer(PeerIdentity.unknown.uid, PeerIdentity.unknown.gid), subscribe)), "an unknown peer is nobody")
    }

    func testWhoMayChooseForAnApp() throws {
        // No launcher named: anyone for an open app; for a closed app whoever may be it (and root).
        hub = Hub(configuration: try configuration(Self.closedMail))
        let stranger = peer(Self.strangerUser)
        let mail = peer(Self.mailUser)
        func choose(_ c: Int, _ app: String) -> String {
            answer(c, #"{"request":"chooseAction","id":5,"app":"\#(app)","action":"compose"}"#)
        }
        XCTAssertFalse(refused(choose(stranger, "org.example.open")))
        let closed = choose(stranger, "org.example.mail")
        XCTAssertTrue(refused(closed), closed)
        XCTAssertTrue(closed.contains("app \\\"org.example.mail\\\" is closed: only root, user mail, group mail-apps may choose for it"), closed)
        XCTAssertFalse(refused(choose(mail, "org.example.mail")))
        XCTAssertFalse(refused(choose(peer(0, 0), "org.example.mail")))
        // Launchers named: only they (and root) choose for others, open apps included; whoever may be a
        // closed app still may choose for it.
        hub = Hub(configuration: Configuration.merged([
            try configuration(Self.closedMail), try configuration("[pressured]\nLauncherUser = kiosk\nLauncherGroup = launchers\n"),
        ]))
        let kiosk = peer(Self.kioskUser)
        let shell = peer(Self.strangerUser, 100, [Self.launcherGroup])
        let other = peer(Self.strangerUser)
        for app in ["org.example.open", "org.example.mail"] {
            XCTAssertFalse(refused(choose(kiosk, app)), app)
            XCTAssertFalse(refused(choose(shell, app)), app)
        }
        let open = choose(other, "org.example.open")
        XCTAssertTrue(open.contains("only root and the launchers (user kiosk, group launchers) may choose for other apps"), open)
        XCTAssertTrue(refused(choose(other, "org.example.mail")))
        XCTAssertFalse(refused(choose(peer(Self.mailUser), "org.example.mail")))
        XCTAssertEqual(hub.status.pendingChoices, 5, "refused choices do not wait for their app")
    }

    func testAClosedAppsChoicesReachOnlyItsOwnConnections() throws {
        // Before: anyone could subscribe as any app and receive what was chosen for it.
        hub = Hub(configuration: try configuration(Self.closedMail))
        let impostor = peer(Self.strangerUser)
        let mail = peer(Self.mailUser)
        _ = answer(impostor, #"{"request":"subscribe","app":"org.example.mail"}"#)
        _ = answer(mail, #"{"request":"subscribe","app":"org.example.mail"}"#)
        XCTAssertTrue(answer(peer(0, 0), #"{"request":"chooseAction","app":"org.example.mail","action":"compose"}"#).contains(#""delivered":true"#))
        XCTAssertEqual(lines(mail), [#"{"type":"action","app":"org.example.mail","action":"compose"}"#])
        XCTAssertEqual(lines(impostor), [])
    }

    /// A reload that closes an app takes it from the clients that may no longer be it; a reload that
    /// names a control group lets its members control at once.
    func testAReloadAppliesToClientsAlreadyConnected() throws {
        hub = Hub(configuration: try configuration("[app org.example.mail]\nQuickAction1 = compose | New Message\n"))
        let early = peer(Self.strangerUser)
        let mail = peer(Self.mailUser)
        for c in [early, mail] { _ = answer(c, #"{"request":"subscribe","app":"org.example.mail"}"#) }
        XCTAssertTrue(refused(answer(early, #"{"request":"reload"}"#)))
        hub.reload(try configuration(Self.closedMail))
        XCTAssertTrue(hub.takeWork().notices.contains(.warning("client \(early) is no longer app org.example.mail: the configuration closed it to uid 1003 gid 100")))
        XCTAssertNil(hub.clients.subscription(of: early)?.app)
        XCTAssertEqual(hub.clients.subscription(of: mail)?.app, "org.example.mail")
        let setItems = #"{"request":"setQuickActions","id":4,"items":[{"id":"x","title":"X"}]}"#
        let afterRevoke = answer(early, setItems)
        XCTAssertTrue(refused(afterRevoke), "the app was taken from it: not-permitted, not invalid-argument: \(afterRevoke)")
        XCTAssertTrue(afterRevoke.contains("is closed"), afterRevoke)
        XCTAssertFalse(refused(answer(mail, setItems)))
        _ = answer(early, #"{"request":"subscribe"}"#)
        XCTAssertTrue(answer(early, setItems).contains(#""error":"invalid-argument""#), "subscribed again, without an app")
        send(peer(Self.strangerUser, Self.adminGroup), #"{"request":"reload"}"#)
        XCTAssertEqual(hub.takeWork().reloads.count, 1, "the control group the reload named may reload now")
        _ = answer(peer(0, 0), #"{"request":"chooseAction","app":"org.example.mail","action":"compose"}"#)
        XCTAssertEqual(lines(early), [])
        XCTAssertEqual(lines(mail).count, 1)
    }
}
