@testable import PressureCore
@testable import PressureHub
import XCTest

/// ``HubSettings``: what a `set` makes of the settings in force, and taking new ones.
final class HubSettingsTests: XCTestCase {
    func testASetChangesWhatItNamesOnly() {
        let rules = HubSettings(configuration: Configuration(), daemonUser: 0)
        var expected = rules.settings
        expected.forceTouchEnabled = false
        XCTAssertEqual(rules.settings(after: SettingsChange(forceTouch: false)), expected)
    }

    func testHapticsStayOffWhereTheConfigurationTurnsThemOff() throws {
        let off = try Configuration.parse("[haptics]\nHaptics = off\n", file: "t.conf")
        let rules = HubSettings(configuration: off, daemonUser: 0)
        XCTAssertFalse(rules.settings(after: SettingsChange(haptics: true)).hapticsEnabled)
    }

    func testTakingNewSettingsSaysWhetherTheyChangedAndKeepsHapticsMerged() throws {
        var rules = HubSettings(configuration: Configuration(), daemonUser: 0)
        XCTAssertFalse(rules.take(rules.settings, Configuration()))
        let off = try Configuration.parse("[haptics]\nHaptics = off\n", file: "t.conf")
        var firm = rules.settings
        firm.sensitivity = .firm
        XCTAssertTrue(rules.take(firm, off))
        XCTAssertEqual(rules.settings.sensitivity, .firm)
        XCTAssertEqual(rules.haptics.mode, .off)
    }
}
