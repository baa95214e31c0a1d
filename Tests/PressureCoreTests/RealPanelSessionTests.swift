import XCTest
@testable import PressureCore

/// Real panels out of the box (issue 11): sessions of ordinary touches built from each shared touchscreen
/// recording's real contacts (``RealPanelSession``), on a fresh device with no configuration, must give
/// - after the first 30 touches, a peek on at most 5% of ordinary touches; within the first 30, at most 25%;
/// - a pop on at least 80% of the firm presses (after the first 30 touches) where the panel has the
///   headroom (the top of its range at least 1.6 learned average touches);
/// - a long press on every still hold, and never a peek on a feather touch;
/// - every peek ending in exactly one pop or dismiss (``InvariantChecker``).
/// Panels without usable pressure (Stantum's 9 levels, the saturating Ideacoms) end with force
/// unavailable. Each panel is played twice over: sessions drawn from the contacts the thresholds were
/// tuned on, and sessions drawn only from contacts held out of that tuning (where a panel has enough).
final class RealPanelSessionTests: XCTestCase {
    static let seeds: [UInt64] = [11, 23, 37]
    static let unusable: [String: String] = [
        "stantum": "too-few-levels", "ideacom-6650": "no-headroom", "ideacom-6651": "no-headroom",
    ]

    func testSessionsOfOrdinaryTouchesOnEveryRealPanel() throws {
        var report: [String] = []
        for panel in try RealPanels.load() {
            let pools: [(String, [RealPanel.Contact])] = [
                ("tuned", panel.contacts(.ordinary, heldOut: false)),
                ("held out", panel.contacts(.ordinary, heldOut: true)),
            ]
            for (name, pool) in pools where !pool.isEmpty {
                var first = (0, 0), later = (0, 0), firm = (0, 0), holds = (0, 0), feathers = (0, 0)
                var ends: [String] = []
                for seed in Self.seeds {
                    let s = try RealPanelSession(panel: panel, pool: pool, seed: seed)
                    let t = s.touches
                    add(&first, t.share(.ordinary, to: 30) { $0.peeked })
                    add(&later, t.share(.ordinary, from: 30) { $0.peeked })
                    add(&holds, t.share(.hold) { $0.longPressed })
                    add(&feathers, t.share(.feather) { $0.peeked })
                    let headroom = s.maximumPossibleForce >= 1.6
                    if s.forceCapability == .available && headroom { add(&firm, t.share(.firm, from: 30) { $0.popped }) }
                    ends.append(s.reason?.code ?? "available, max \(DecimalText.fixed(s.maximumPossibleForce, 2))")
                    if let expected = Self.unusable[panel.label] {
                        XCTAssertEqual(s.reason?.code, expected, "\(panel.label) seed \(seed) ends with force off")
                    }
                }
                let what = "\(panel.label) (\(name), \(pool.count) contacts)"
                XCTAssertLessThanOrEqual(Double(later.0), 0.05 * Double(later.1), "\(what): ordinary peeks after 30")
                XCTAssertLessThanOrEqual(Double(first.0), 0.25 * Double(first.1), "\(what): ordinary peeks in the first 30")
                XCTAssertGreaterThanOrEqual(Double(firm.0), 0.8 * Double(firm.1), "\(what): firm presses that pop")
                XCTAssertEqual(holds.0, holds.1, "\(what): every still hold long-presses")
                XCTAssertEqual(feathers.0, 0, "\(what): no feather touch peeks")
                report.append("\(what): ordinary peeks \(first.0)/\(first.1) in the first 30, \(later.0)/\(later.1)"
                    + " after; firm pops \(firm.0)/\(firm.1); holds \(holds.0)/\(holds.1); ends \(Set(ends).sorted())")
            }
        }
        // The figures, for the log (and the closing note of whoever changes the rule).
        print(report.joined(separator: "\n"))
    }

    func add(_ total: inout (Int, Int), _ part: (Int, Int)) {
        total = (total.0 + part.0, total.1 + part.1)
    }

    func testTheListCoversEveryTouchscreenRecordingWithPressure() throws {
        let panels = try RealPanels.load()
        XCTAssertEqual(panels.map(\.contacts.count).reduce(0, +), 140)
        XCTAssertEqual(Set(panels.map(\.label)).count, 11)
        for p in panels {
            XCTAssertTrue(p.device.hasPressure, p.label)
            XCTAssertEqual(p.device.kind, .touchscreen, p.label)
        }
        let flatFrog = try XCTUnwrap(panels.first { $0.label == "flatfrog" })
        XCTAssertEqual(flatFrog.contacts(.firm).map(\.peak), [859, 879])
        XCTAssertEqual(flatFrog.contacts(.ordinary).map(\.peak).max(), 640)
    }
}
