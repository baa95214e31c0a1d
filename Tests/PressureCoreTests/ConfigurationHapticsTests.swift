import XCTest
@testable import PressureCore

/// The `[haptics]` section: defaults, overrides, merging across files, and errors naming file and line.
final class ConfigurationHapticsTests: XCTestCase {
    func parse(_ text: String, file: String = "h.conf") throws -> Configuration {
        try Configuration.parse(text, file: file)
    }

    func error(_ text: String) -> String {
        do throws(ConfigurationError) {
            _ = try Configuration.parse(text, file: "h.conf")
            return "parsed"
        } catch { return error.description }
    }

    func testNoSectionGivesTheDocumentedDefaults() throws {
        let c = try parse("")
        XCTAssertEqual(c.haptics, HapticSettings())
        XCTAssertEqual(c.haptics.mode, .auto)
        XCTAssertTrue(c.settings.hapticsEnabled)
        XCTAssertTrue(c.haptics.uses(name: "anything"))
    }

    func testEveryKeyIsRead() throws {
        let c = try parse("""
            [haptics]
            Haptics = off
            Device = /dev/input/event7 /dev/input/event9
            MatchName = *vibra*
            Actuator = motor
            PeekEffect = rumble
            PeekStrength = 0.3
            PeekMs = 25
            PopEffect = auto
            QuickActionsEffect = off
            LongPressMs = 60
            """)
        let h = c.haptics
        XCTAssertEqual(h.mode, .off)
        XCTAssertFalse(c.settings.hapticsEnabled, "Haptics = off starts them off")
        XCTAssertEqual(h.nodes, ["/dev/input/event7", "/dev/input/event9"])
        XCTAssertTrue(h.uses(name: "pwm-vibrator"))
        XCTAssertFalse(h.uses(name: "Touchscreen"))
        XCTAssertEqual(h.effect(.peek), HapticEffect(kind: .rumble, strength: 0.3, durationMilliseconds: 25))
        XCTAssertEqual(h.effect(.pop), HapticActuator.motor.defaultEffect(.pop))
        XCTAssertNil(h.effect(.quickActions))
        XCTAssertEqual(h.effect(.longPress)?.durationMilliseconds, 60)
        XCTAssertEqual(h.effect(.longPress)?.strength, HapticActuator.motor.defaultEffect(.longPress).strength)
    }

    func testLaterFilesOverrideKeyByKeyAndAGestureTurnedOffCanComeBack() throws {
        let a = try parse("[haptics]\nPopMs = 22\nLongPressEffect = off\nLongPressStrength = 0.9\n", file: "a.conf")
        let b = try parse("[haptics]\nLongPressEffect = periodic\nActuator = linear\n", file: "b.conf")
        let h = Configuration.merged([a, b]).haptics
        XCTAssertEqual(h.effect(.pop)?.durationMilliseconds, 22)
        XCTAssertEqual(h.effect(.longPress), HapticEffect(kind: .periodic, strength: 0.9, durationMilliseconds: 15))
        XCTAssertNil(Configuration.merged([b, a]).haptics.effect(.longPress))
    }

    func testMistakesNameTheFileAndLine() {
        XCTAssertEqual(error("[haptics]\nHaptics = maybe\n"), "h.conf:2: Haptics = maybe: expected one of auto, off")
        XCTAssertEqual(error("[haptics]\n\nPopStrength = 2\n"),
                       "h.conf:3: PopStrength = 2: expected a number from 0.05 to 1 (of the device's full strength)")
        XCTAssertEqual(error("[haptics]\nPeekMs = 0\n"), "h.conf:2: PeekMs = 0: expected an integer from 1 to 1000 (milliseconds)")
        XCTAssertEqual(error("[haptics]\nPeekEffect = buzz\n"),
                       "h.conf:2: PeekEffect = buzz: expected one of off, auto, haptic, custom, rumble, periodic")
        XCTAssertEqual(error("[haptics]\nDevice = event3\n"), "h.conf:2: Device = event3: expected absolute paths of device nodes (/dev/input/eventN)")
        XCTAssertEqual(error("[haptics]\nActuator =\n"), "h.conf:2: Actuator has no value: expected linear, motor")
        XCTAssertTrue(error("[haptics]\nPeekms = 3\n").hasPrefix("h.conf:2: unknown key Peekms in [haptics]: expected one of Haptics,"))
        XCTAssertTrue(error("[haptics]\nPeekms = 3\n").hasSuffix("(keys are case-sensitive: did you mean PeekMs?)"))
        XCTAssertEqual(error("[haptics]\nPopMs = 3\nPopMs = 4\n"),
                       "h.conf:3: PopMs given twice in one section (first on line 2): expected each key at most once")
        XCTAssertEqual(error("[haptics]\n[haptics]\n"),
                       "h.conf:2: second [haptics] section (first on line 1): expected at most one per file")
        XCTAssertEqual(error("[haptics]\nMatchName = [a\n"), "h.conf:2: MatchName pattern '[a' is malformed: '[' at offset 0 has no closing ']'")
    }

    func testHapticsKeysStayInTheirSection() throws {
        XCTAssertTrue(error("[pressured]\nPeekMs = 10\n").contains("unknown key PeekMs in [pressured]"))
        // A `[haptics]` section ends at the next header: keys after it belong to the next section.
        let c = try parse("[haptics]\nPeekMs = 10\n[pressured]\nForceTouch = off\n")
        XCTAssertEqual(c.haptics.effect(.peek)?.durationMilliseconds, 10)
        XCTAssertFalse(c.settings.forceTouchEnabled)
        XCTAssertTrue(c.sections.isEmpty, "[haptics] is not a device section")
    }
}
