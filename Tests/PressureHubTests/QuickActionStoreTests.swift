@testable import PressureCore
@testable import PressureHub
import XCTest

/// ``QuickActionStore`` on its own: an icon's menu (static, run-time, then the icon's own items, each id
/// once, four at most), the run-time items bounded by app, and the choices waiting for their app bounded
/// and expiring, each forgotten thing logged.
final class QuickActionStoreTests: XCTestCase {
    func items(_ ids: String...) -> [QuickActionItem] { ids.map { QuickActionItem(id: $0, title: $0.uppercased()) } }

    func testAMenuIsStaticThenRunTimeThenTheIconsOwnEachIdOnceFourAtMost() {
        var store = QuickActionStore()
        var work = Hub.Work()
        store.set(items("compose", "inbox"), forApp: "mail", &work)
        XCTAssertEqual(store.menu(forApp: "mail", statics: items("search")).map(\.id), ["search", "compose", "inbox"])
        XCTAssertEqual(
            store.menu(forApp: "mail", statics: items("search", "inbox"), own: items("share", "remove")).map(\.id),
            ["search", "inbox", "compose", "share"], "the second inbox goes, and past four the rest")
        XCTAssertEqual(store.menu(forApp: "maps", statics: [], own: items("share")).map(\.id), ["share"])
        XCTAssertEqual(work.notices, [])
    }

    func testAMenuSaysWhichPositionsItCut() {
        let (shown, cut) = QuickActionStore.menu(items("a", "b", "a", "c", "d", "e"))
        XCTAssertEqual(shown.map(\.id), ["a", "b", "c", "d"])
        XCTAssertEqual(cut, [2, 5])
    }

    func testNoItemsForgetAnAppsAndSettingAgainMakesItTheNewest() {
        var store = QuickActionStore()
        var work = Hub.Work()
        store.set(items("a"), forApp: "one", &work)
        store.set(items("b"), forApp: "two", &work)
        XCTAssertEqual(store.appCount, 2)
        store.set([], forApp: "one", &work)
        XCTAssertEqual(store.appCount, 1)
        XCTAssertNil(store.runTime["one"])
        store.set(items("c"), forApp: "two", &work)
        XCTAssertEqual(store.runTime["two"]?.map(\.id), ["c"], "replaced, not added to")
        XCTAssertEqual(work.notices, [])
    }

    func testPastTheLimitTheAppThatSetItsItemsLongestAgoIsForgotten() {
        var store = QuickActionStore()
        var work = Hub.Work()
        for k in 0..<Hub.maximumQuickActionApps { store.set(items("x"), forApp: "app\(k)", &work) }
        store.set(items("y"), forApp: "app0", &work)  // app0 is the newest now: app1 the oldest
        XCTAssertEqual(work.notices, [])
        store.set(items("z"), forApp: "late", &work)
        XCTAssertEqual(store.appCount, Hub.maximumQuickActionApps)
        XCTAssertNil(store.runTime["app1"])
        XCTAssertNotNil(store.runTime["app0"])
        XCTAssertEqual(work.notices, [
            .clientWarning("forgot the quick actions of app1: more than \(Hub.maximumQuickActionApps) apps set some"),
        ])
    }

    func testChoicesWaitForTheirAppInOrderAndGoWhenDelivered() {
        var store = QuickActionStore()
        var work = Hub.Work()
        let now = Timestamp(microseconds: 1_000_000)
        store.wait(app: "mail", action: "compose", now: now, &work)
        store.wait(app: "maps", action: "home", now: now + .milliseconds(10), &work)
        store.wait(app: "mail", action: "inbox", now: now + .milliseconds(20), &work)
        XCTAssertEqual(work.notices, [
            .client("choice compose waits for mail to connect"), .client("choice home waits for maps to connect"),
            .client("choice inbox waits for mail to connect"),
        ])
        XCTAssertEqual(store.choices(forApp: "mail").map(\.action), ["compose", "inbox"])
        XCTAssertEqual(store.earliestExpiry, now + Hub.choiceLifetime)
        store.removeChoices(forApp: "mail", delivered: [false, true])
        XCTAssertEqual(store.choices.map(\.action), ["compose", "home"], "only the delivered one goes")
        store.removeChoices(forApp: "mail", delivered: [true])
        XCTAssertEqual(store.choices.map(\.action), ["home"])
    }

    func testPastTheLimitTheOldestChoiceIsDropped() {
        var store = QuickActionStore()
        var work = Hub.Work()
        for k in 0..<Hub.maximumPendingChoices {
            store.wait(app: "app", action: "a\(k)", now: Timestamp(microseconds: 0), &work)
        }
        work.notices = []
        store.wait(app: "app", action: "late", now: Timestamp(microseconds: 0), &work)
        XCTAssertEqual(store.choices.count, Hub.maximumPendingChoices)
        XCTAssertEqual(store.choices.first?.action, "a1")
        XCTAssertEqual(work.notices, [
            .clientWarning("dropped the choice a0 for app: too many waiting"),
            .client("choice late waits for app to connect"),
        ])
    }

    func testAChoiceWhoseAppNeverCameExpiresAtItsDeadline() {
        var store = QuickActionStore()
        var work = Hub.Work()
        let start = Timestamp(microseconds: 0)
        store.wait(app: "mail", action: "compose", now: start, &work)
        store.wait(app: "maps", action: "home", now: start + .milliseconds(5_000), &work)
        work.notices = []
        store.expire(now: start + Timestamp.Duration(microseconds: Hub.choiceLifetime.microseconds - 1), &work)
        XCTAssertEqual(store.choices.count, 2, "not yet")
        store.expire(now: start + Hub.choiceLifetime, &work)
        XCTAssertEqual(store.choices.map(\.app), ["maps"])
        XCTAssertEqual(store.earliestExpiry, start + .milliseconds(5_000) + Hub.choiceLifetime)
        XCTAssertEqual(
            work.notices, [.clientWarning("dropped the choice compose for mail: the app did not connect in time")])
        store.expire(now: start + .milliseconds(60_000), &work)
        XCTAssertNil(store.earliestExpiry)
    }
}
