import DeviceTestSupport
import XCTest

@testable import PressureCore

/// `PressureTouchDown`, `PressureTouchUp` and `PalmSizeMm` (`DeviceSectionReader.swift`, `ResolvedTracking.swift`).
extension ConfigurationTests {
    /// A resistive panel without `BTN_TOUCH`, pressure 0..255 (defaults: down 30, up 25).
    static var resistive: TouchDevice {
        get throws {
            try TouchDevice(DeviceDescription(
                name: "Resistive Panel", identity: DeviceIdentity(bus: 0x19, vendor: 0x0001, product: 0x0002),
                absInfo: [
                    AbsCode.x: AbsInfo(minimum: 0, maximum: 4095), AbsCode.y: AbsInfo(minimum: 0, maximum: 4095),
                    AbsCode.pressure: AbsInfo(minimum: 0, maximum: 255),
                ]))
        }
    }

    func testTrackingDefaultsNeedNoConfiguration() throws {
        let r = try Configuration().tracking(for: try Self.resistive)
        XCTAssertEqual(r.settings, TrackerSettings())
        XCTAssertEqual(r.settings.palmSize, .millimetres(25))
        XCTAssertEqual(r.hysteresis, TouchHysteresis(down: 30, up: 25))
        XCTAssertEqual(r.palmSizeSource, "default")
        XCTAssertEqual(r.hysteresisSources?.down, "default (minimum + 12% of the range)")
        // Devices that touch by tracking id or BTN_TOUCH have no thresholds to show.
        XCTAssertNil(try Configuration().tracking(for: try TouchDevice(TestDevices.slotted)).hysteresis)
        XCTAssertNil(try Configuration().tracking(for: try TouchDevice(TestDevices.singleTouch)).hysteresis)
    }

    func testPalmSizeInPressuredAndInADeviceSection() throws {
        let c = try parse(
            """
            [Panel]
            MatchName=Resistive*
            PalmSizeMm = 40
            [pressured]
            PalmSizeMm = 30.5
            [Other]
            MatchBus=usb
            PalmSizeMm=off
            """, file: "p.conf")
        XCTAssertEqual(c.settingsSections.first?.palmSize, .millimetres(30.5))
        // The device section wins over [pressured], whatever the order.
        let panel = c.palmSize(for: try Self.resistive.description)
        XCTAssertEqual(panel.size, .millimetres(40))
        XCTAssertEqual(panel.source, "[Panel] p.conf:3")
        let usb = c.palmSize(for: TestDevices.slotted)
        XCTAssertEqual(usb.size, .off)
        XCTAssertEqual(usb.source, "[Other] p.conf:8")
        let elsewhere = c.palmSize(for: Self.other)
        XCTAssertEqual(elsewhere.size, .millimetres(30.5))
        XCTAssertEqual(elsewhere.source, "[pressured] p.conf:5")
        XCTAssertEqual(try parse("[pressured]\nPalmSizeMm=0\n").settingsSections.first?.palmSize, .off)
        XCTAssertEqual(try parse("[pressured]\nPalmSizeMm=OFF\n").settingsSections.first?.palmSize, .off)
        XCTAssertEqual(try parse("[pressured]\nPalmSizeMm=5\n").settingsSections.first?.palmSize, .millimetres(5))
        XCTAssertEqual(PalmSize.millimetres(25).description, "25 mm")
        XCTAssertEqual(PalmSize.millimetres(30.5).description, "30.5 mm")
        // Not a gesture setting: [pressured]'s other settings are untouched.
        XCTAssertEqual(try parse("[pressured]\nPalmSizeMm=40\n").settings, GestureSettings())
    }

    func testPalmSizeErrors() {
        let expected = "a size from 5 to 300 (millimetres), or off (also 0)"
        assertError(
            "[pressured]\nPalmSizeMm = 4.9\n", line: 2, .outOfRange(key: "PalmSizeMm", value: "4.9", expected: expected),
            mentions: "PalmSizeMm = 4.9: expected a size from 5 to 300")
        assertError(
            "[P]\nMatchBus=usb\nPalmSizeMm=301\n", line: 3,
            .outOfRange(key: "PalmSizeMm", value: "301", expected: expected), mentions: "or off")
        assertError(
            "[P]\nMatchBus=usb\nPalmSizeMm=big\n", line: 3,
            .invalidNumber(key: "PalmSizeMm", value: "big", expected: expected), mentions: "PalmSizeMm = big")
        assertError(
            "[pressured]\nPalmSizeMm=\n", line: 2, .emptyValue(key: "PalmSizeMm", expected: expected),
            mentions: "PalmSizeMm")
        assertError(
            "[pressured]\nPressureTouchDown=40\n", line: 2, .unknownSettingsKey(key: "PressureTouchDown"),
            mentions: "PalmSizeMm")
    }

    func testTouchThresholdsFromSectionsWithSources() throws {
        let c = try parse(
            """
            [All resistive]
            MatchBus=host
            PressureTouchDown = 50
            PressureTouchUp = 0x28
            [This one]
            MatchName=Resistive Panel
            PressureTouchUp=30
            """, file: "t.conf")
        XCTAssertEqual(c.sections[0].tracking.touchDown, 50)
        XCTAssertEqual(c.sections[0].tracking.touchUp, 40)
        let r = try c.tracking(for: try Self.resistive)
        XCTAssertEqual(r.settings.touchDown, 50)
        XCTAssertEqual(r.settings.touchUp, 30)
        XCTAssertEqual(r.hysteresis, TouchHysteresis(down: 50, up: 30))
        XCTAssertEqual(r.hysteresisSources, TouchThresholdSources(down: "[All resistive] t.conf:3", up: "[This one] t.conf:7"))
        XCTAssertEqual(r.settings.palmSize, TrackerSettings.defaultPalmSize)
    }

    func testTouchThresholdsReversedInOneSectionAreAnErrorAtTheSecond() {
        assertError(
            "[P]\nMatchBus=usb\nPressureTouchUp=40\n\nPressureTouchDown=40\n", line: 5,
            .touchThresholdsReversed(down: 40, up: 40, otherLine: 3),
            mentions: "PressureTouchDown 40 is not above PressureTouchUp 40 (the other on line 3)")
        assertError(
            "[P]\nMatchBus=usb\nPressureTouchDown=20\nPressureTouchUp=30\n", line: 4,
            .touchThresholdsReversed(down: 20, up: 30, otherLine: 3), mentions: "expected a touch to begin")
        assertError(
            "[P]\nMatchBus=usb\nPressureTouchDown=1e3\n", line: 3,
            .invalidNumber(
                key: "PressureTouchDown", value: "1e3",
                expected: "an integer from -2147483648 to 2147483647 (raw pressure units; decimal or 0x hex)"),
            mentions: "PressureTouchDown = 1e3")
        assertError(
            "[P]\nMatchBus=usb\nPressureTouchUp=2147483648\n", line: 3,
            .outOfRange(
                key: "PressureTouchUp", value: "2147483648",
                expected: "an integer from -2147483648 to 2147483647 (raw pressure units; decimal or 0x hex)"),
            mentions: "PressureTouchUp")
    }

    func testMergedTouchThresholdsMustFitTheAxis() throws {
        let device = try Self.resistive
        func error(_ text: String) throws -> ConfigurationError? {
            let c = try parse(text, file: "m.conf")
            do throws(ConfigurationError) {
                _ = try c.tracking(for: device)
                XCTFail("expected an error for \(text)")
                return nil
            } catch {
                return error
            }
        }
        // Down below the default up: each section alone is fine, the merge is not.
        let low = try XCTUnwrap(try error("[a]\nMatchBus=host\nPressureTouchDown=20\n"))
        XCTAssertEqual(low.file, "m.conf")
        XCTAssertEqual(low.line, 1)
        XCTAssertEqual(
            low.reason,
            .invalidTouchThresholds(
                device: "Resistive Panel", down: 20, up: 25, axis: AbsInfo(minimum: 0, maximum: 255),
                sources: TouchThresholdSources(down: "[a] m.conf:3", up: "default (minimum + 10% of the range)")))
        XCTAssertTrue(low.description.hasPrefix("m.conf:1: touch thresholds for 'Resistive Panel' are invalid: "))
        XCTAssertTrue(low.description.contains("expected 0 < PressureTouchUp < PressureTouchDown <= 255"))
        // Across sections, reported at the last section that set one.
        let across = try XCTUnwrap(try error("[a]\nMatchBus=host\nPressureTouchDown=60\n[b]\nMatchBus=host\nPressureTouchUp=60\n"))
        XCTAssertEqual(across.line, 4)
        XCTAssertNotNil(try error("[a]\nMatchBus=host\nPressureTouchDown=256\n"), "beyond the axis")
        XCTAssertNotNil(try error("[a]\nMatchBus=host\nPressureTouchUp=0\n"), "up at the minimum never ends a touch")
        XCTAssertNoThrow(try parse("[a]\nMatchBus=host\nPressureTouchDown=255\nPressureTouchUp=1\n").tracking(for: try Self.resistive))
        // On a device that touches by tracking id the thresholds do nothing, so they are not checked.
        let mt = try parse("[a]\nMatchBus=usb\nPressureTouchDown=5000\n").tracking(for: try TouchDevice(TestDevices.slotted))
        XCTAssertNil(mt.hysteresis)
    }

    func testUnknownDeviceKeyListsTheTrackingKeys() {
        guard let e = parseError("[P]\nMatchBus=usb\nPalmSize=20\n") else { return }
        XCTAssertTrue(e.description.contains("PressureTouchDown, PressureTouchUp, PalmSizeMm"), e.description)
    }
}
