import DeviceTestSupport
import Foundation
@testable import PressureCore
@testable import PressureHub
import XCTest

/// The region router on its own: the tables in ``RegionRouter/Stage``'s doc comment are read and the code
/// held to them (every stage, gesture and kind of region; each outcome the first row that applies names,
/// every row the one that applies to something), every transition is walked through ``RegionRouter``
/// itself, and the touches it owns come and go as its documentation says.
final class RegionRouterTests: XCTestCase {
    typealias Stage = RegionRouter.Stage

    static let source = FixtureFiles.repoRoot.appendingPathComponent("Sources/PressureHub/RegionRouter+Stage.swift")

    /// One row of a table, its cells as written (backticks dropped), with its line in the source.
    struct Row {
        var line: Int
        var cells: [String]
    }

    /// The rows of the doc-comment table whose header is `header`, up to the first line that is not one.
    func table(_ header: [String]) throws -> [Row] {
        let text = try String(contentsOf: Self.source, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        func cells(_ line: String) -> [String]? {
            guard line.hasPrefix("/// |") else { return nil }
            return line.dropFirst(4).split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces) }
        }
        let start = try XCTUnwrap(lines.firstIndex { cells($0) == header }, "no table \(header) in the doc comment")
        var rows: [Row] = []
        for i in (start + 2)..<lines.count {
            guard let c = cells(lines[i]) else { break }
            XCTAssertEqual(c.count, header.count, "RegionRouter+Stage.swift:\(i + 1)")
            rows.append(Row(line: i + 1, cells: c))
        }
        XCTAssertFalse(rows.isEmpty, "the table \(header) has no rows")
        return rows
    }

    /// Every kind of region: with and without an app, wanting each set of gestures.
    static let regions: [Region] = [nil, "org.example.mail"].flatMap { app in
        (0..<8).map { bits in
            Region(id: "r", owner: 7, x: 0, y: 0, width: 100, height: 100, wants: RegionWants(rawValue: UInt8(bits)),
                   app: app, items: [QuickActionItem(id: "new", title: "New")])
        }
    }

    func stageNamed(_ name: String) throws -> Stage {
        let all: [String: Stage] = [
            "pressing": .pressing, "previewing": .previewing, "menu": .menu, "refused": .refused,
        ]
        return try XCTUnwrap(all[name], "no stage \(name)")
    }

    /// The stages a cell names: `any`, or a list.
    func stages(_ cell: String) throws -> Set<Stage> {
        if cell == "any" { return Set(Stage.allCases) }
        return Set(try cell.split(separator: ",").map { try stageNamed($0.trimmingCharacters(in: .whitespaces)) })
    }

    /// Whether a condition the tables use holds for `r`, read from the region as the client registered it.
    func holds(_ condition: String, _ r: Region, line: Int) -> Bool {
        let icon = r.app != nil && r.wants.contains(.quickActions)
        switch condition {
        case "", "otherwise", "always": return true
        case "never": return false
        case "an icon": return icon
        case "wants previews": return r.wants.contains(.previews)
        case "wants quick actions": return r.wants.contains(.quickActions)
        case "wants long press": return r.wants.contains(.longPress)
        case "wants previews, or an icon": return r.wants.contains(.previews) || icon
        default:
            XCTFail("RegionRouter+Stage.swift:\(line): no meaning for the condition \"\(condition)\"")
            return false
        }
    }

    /// What the `the owner gets` column says, for a region that is the icon of `icon` (or none).
    func sent(_ cell: String, icon: String?, line: Int) -> Stage.Sent? {
        switch cell {
        case "—": return .nothing
        case "the gesture": return .gesture
        case "the icon's menu": return icon.map { .iconMenu(app: $0) }
        case "the region's items": return .regionItems
        default:
            XCTFail("RegionRouter+Stage.swift:\(line): no meaning for \"\(cell)\"")
            return nil
        }
    }

    /// A stage, a gesture and a region, in words for a failure.
    func describe(_ stage: Stage, _ g: GestureKind, _ r: Region) -> String {
        "\(stage) + \(g.rawValue) in a region wanting \(r.wants.rawValue), app \(r.app ?? "none")"
    }

    func testTheTransitionTableIsWhatTheCodeDoes() throws {
        let rows = try table(["stage", "gesture", "condition", "next", "the owner gets"])
        var used = Set<Int>()
        for stage in Stage.allCases {
            for g in GestureKind.allCases {
                for r in Self.regions {
                    let owner = RegionRouter.Owner(r)
                    let got = stage.after(g, wants: owner.wants, icon: owner.icon)
                    let what = describe(stage, g, r)
                    let row = try rows.first { row in
                        try stages(row.cells[0]).contains(stage)
                            && row.cells[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                                .contains(g.rawValue)
                            && holds(row.cells[2], r, line: row.line)
                    }
                    guard let row else {
                        XCTFail("no row for \(what)")
                        continue
                    }
                    used.insert(row.line)
                    let next = row.cells[3] == "same" ? stage : try stageNamed(row.cells[3])
                    XCTAssertEqual(got.next, next, "RegionRouter+Stage.swift:\(row.line): \(what)")
                    XCTAssertEqual(got.sent, sent(row.cells[4], icon: owner.icon, line: row.line),
                                   "RegionRouter+Stage.swift:\(row.line): \(what)")
                }
            }
        }
        for row in rows where !used.contains(row.line) {
            XCTFail("RegionRouter+Stage.swift:\(row.line): a row nothing reaches")
        }
    }

    func testTheProgressTableIsWhatTheCodeDoes() throws {
        let rows = try table(["stage", "shows progress"])
        var used = Set<Int>()
        for stage in Stage.allCases {
            let row = try rows.first { try stages($0.cells[0]).contains(stage) }
            guard let row else {
                XCTFail("no row for \(stage)")
                continue
            }
            used.insert(row.line)
            for r in Self.regions {
                let owner = RegionRouter.Owner(r)
                XCTAssertEqual(
                    stage.showsProgress(wants: owner.wants, icon: owner.icon), holds(row.cells[1], r, line: row.line),
                    "RegionRouter+Stage.swift:\(row.line): \(stage) in a region wanting \(r.wants.rawValue)")
            }
        }
        XCTAssertEqual(used.count, rows.count, "a row no stage reaches")
    }

    // MARK: - Through the router

    /// A touch of device 1 at (10, 10), contact `contact`, as gesture `g` (or a touch's beginning).
    func touch(_ g: GestureKind? = nil, contact: UInt64 = 1, device: Int = 1, x: Double = 10) -> PressureEvent {
        PressureEvent(kind: g.map { .gesture($0) } ?? .touch(.began), time: Timestamp(microseconds: 0), device: device,
                      contact: contact, x: 0, y: 0, screenX: x, screenY: 10, force: 0, maximumPossibleForce: 0)
    }

    /// What the router decided, in words: `unowned`, `withheld`, or `client region: type menu app`.
    func describe(_ d: RegionRouter.Decision) -> String {
        switch d {
        case .unowned: return "unowned"
        case .withheld: return "withheld"
        case .owner(let client, let event, let region, let app, let menu):
            let m: String
            switch menu {
            case nil: m = "no menu"
            case .icon(let app, let own)?: m = "icon \(app) \(own.map(\.id))"
            case .items(let items)?: m = "items \(items.map(\.id))"
            }
            return "\(client) \(region): \(event.typeName), \(m), app \(app ?? "none")"
        }
    }

    /// The gestures that bring a fresh touch to `stage` in region `r`, or nil where it cannot get there.
    func path(to stage: Stage, in r: Region) -> [GestureKind]? {
        let owner = RegionRouter.Owner(r)
        guard stage != .pressing else { return [] }
        return Stage.pressing.after(.peek, wants: owner.wants, icon: owner.icon).next == stage ? [.peek] : nil
    }

    /// Every transition of every stage a touch can reach in each kind of region, through `route`: the
    /// decision is what the table's step says, and the progress shown after it is the next stage's.
    func testEveryTransitionThroughTheRouterDoesWhatTheStepSays() {
        var walked = 0
        for r in Self.regions {
            let owner = RegionRouter.Owner(r)
            for stage in Stage.allCases {
                guard let path = path(to: stage, in: r) else { continue }
                for g in GestureKind.allCases {
                    var router = RegionRouter()
                    router.set(r)
                    router.touchBegan(touch())
                    for p in path { _ = router.route(p, touch(p)) }
                    let step = stage.after(g, wants: owner.wants, icon: owner.icon)
                    let expected: String
                    switch step.sent {
                    case .nothing: expected = "withheld"
                    case .gesture: expected = "7 r: \(g.rawValue), no menu, app none"
                    case .iconMenu(let app): expected = "7 r: quickActions, icon \(app) [\"new\"], app \(app)"
                    case .regionItems: expected = "7 r: quickActions, items [\"new\"], app \(r.app ?? "none")"
                    }
                    let what = describe(stage, g, r)
                    XCTAssertEqual(describe(router.route(g, touch(g))), expected, what)
                    XCTAssertEqual(
                        router.showsProgress(touch()), step.next.showsProgress(wants: r.wants, icon: owner.icon), what)
                    walked += 1
                }
            }
        }
        // 16 kinds of region, each with `pressing` and one peeked stage, times five gestures.
        XCTAssertEqual(walked, 16 * 2 * 5)
    }

    func testTheStagesAreReachedFromTheRegionsThatLeadThere() {
        func peeked(_ wants: RegionWants, app: String?) -> Stage {
            Stage.pressing.after(.peek, wants: wants, icon: RegionRouter.Owner(
                Region(id: "r", owner: 1, x: 0, y: 0, width: 1, height: 1, wants: wants, app: app)).icon).next
        }
        XCTAssertEqual(peeked([.previews, .quickActions], app: "mail"), .menu)
        XCTAssertEqual(peeked([.previews], app: "mail"), .previewing, "an app without quick actions is no icon")
        XCTAssertEqual(peeked([.quickActions], app: nil), .refused, "quick actions alone are not a preview")
        XCTAssertEqual(peeked([.longPress], app: nil), .refused)
    }

    // MARK: - The touches it owns

    func testATouchOutsideEveryRegionIsUnownedAndShowsEverything() {
        var router = RegionRouter()
        router.set(Region(id: "r", owner: 7, x: 0, y: 0, width: 100, height: 100, wants: [], haptics: false))
        let outside = touch(x: 500)
        router.touchBegan(outside)
        XCTAssertEqual(router.ownedTouches, 0)
        XCTAssertEqual(describe(router.route(.peek, touch(.peek, x: 500))), "unowned")
        XCTAssertTrue(router.showsProgress(outside))
        XCTAssertTrue(router.playsHaptics(outside))
        XCTAssertFalse(router.touchEnded(outside))
    }

    func testAnOwnedTouchStaysItsOwnersUntilItEndsWhateverBecomesOfTheRegion() {
        var router = RegionRouter()
        router.set(Region(id: "r", owner: 7, x: 0, y: 0, width: 100, height: 100, haptics: false))
        router.touchBegan(touch())
        XCTAssertEqual(router.count, 1)
        XCTAssertEqual(router.ownedTouches, 1)
        XCTAssertTrue(router.ownsTouches(onDevice: 1))
        XCTAssertFalse(router.ownsTouches(onDevice: 2))
        XCTAssertFalse(router.playsHaptics(touch()), "the region said no haptics")
        router.removeAll(owner: 7)
        XCTAssertTrue(router.isEmpty)
        XCTAssertEqual(describe(router.route(.longPress, touch(.longPress))), "7 r: longPress, no menu, app none")
        // A touch beginning now, where the region was, is nobody's.
        router.touchBegan(touch(contact: 2))
        XCTAssertEqual(describe(router.route(.longPress, touch(.longPress, contact: 2))), "unowned")
        XCTAssertTrue(router.touchEnded(touch()))
        XCTAssertFalse(router.touchEnded(touch()), "ended once")
        XCTAssertEqual(router.ownedTouches, 0)
    }

    func testAGoneDeviceTakesItsOwnedTouchesWithIt() {
        var router = RegionRouter()
        router.set(Region(id: "r", owner: 7, x: 0, y: 0, width: 100, height: 100))
        router.touchBegan(touch(device: 1))
        router.touchBegan(touch(device: 2))
        router.forget(device: 1)
        XCTAssertFalse(router.ownsTouches(onDevice: 1))
        XCTAssertTrue(router.ownsTouches(onDevice: 2))
        XCTAssertEqual(router.ownedTouches, 1)
        XCTAssertEqual(describe(router.route(.peek, touch(.peek, device: 1))), "unowned")
        XCTAssertTrue(router.remove(owner: 7, id: "r"))
        XCTAssertFalse(router.remove(owner: 7, id: "r"))
    }
}
