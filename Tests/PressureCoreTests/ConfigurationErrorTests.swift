import XCTest

@testable import PressureCore

/// Configuration errors: each names its file and line, and says what is wrong.
extension ConfigurationTests {
    // MARK: Errors, each with its line

    func testErrorUnknownDeviceKey() {
        assertError(
            "[Panel]\nMatchBus=usb\nAttrPressureRange=10:8\n", line: 3,
            .unknownDeviceKey(key: "AttrPressureRange", section: "Panel"), mentions: "MatchName")
        assertError(
            "[Panel]\nMatchBus=usb\nSensitivity=firm\n", line: 3,
            .unknownDeviceKey(key: "Sensitivity", section: "Panel"), mentions: "belongs in [pressured]")
        assertError(
            "[Panel]\nmatchbus=usb\n", line: 2,
            .unknownDeviceKey(key: "matchbus", section: "Panel"), mentions: "did you mean MatchBus?")
    }

    func testErrorUnknownSettingsKey() {
        assertError(
            "\n[pressured]\nForceTouch=on\nPressureTop=5\n", line: 4, .unknownSettingsKey(key: "PressureTop"),
            mentions: "LongPressMs")
    }

    func testErrorNotANumber() {
        let raw = "an integer from -2147483648 to 2147483647 (raw pressure units; decimal or 0x hex)"
        assertError(
            "[P]\nMatchBus=usb\nPressureTop=lots\n", line: 3,
            .invalidNumber(key: "PressureTop", value: "lots", expected: raw), mentions: "PressureTop = lots")
        assertError(
            "[pressured]\nLongPressMs=0.5s\n", line: 2,
            .invalidNumber(key: "LongPressMs", value: "0.5s", expected: "an integer from 100 to 5000 (milliseconds)"),
            mentions: "100 to 5000")
        for bad in ["1e1", "nan", "inf", "-1", "1.2.3", ".", "0x10"] {
            guard let e = parseError("[pressured]\nLongPressSlopMm=\(bad)\n") else { continue }
            XCTAssertEqual(e.line, 2)
            guard case .invalidNumber(key: "LongPressSlopMm", value: bad, _) = e.reason else {
                return XCTFail("\(bad): \(e)")
            }
        }
    }

    func testErrorOutOfRange() {
        assertError(
            "[pressured]\nLongPressMs=99\n", line: 2,
            .outOfRange(key: "LongPressMs", value: "99", expected: "an integer from 100 to 5000 (milliseconds)"),
            mentions: "LongPressMs")
        assertError(
            "[pressured]\nQuickActionsDistanceMm=15.5\n", line: 2,
            .outOfRange(key: "QuickActionsDistanceMm", value: "15.5", expected: "a number from 10 to 15 (millimetres)"),
            mentions: "10 to 15")
        assertError(
            "[pressured]\nLongPressSlopMm=0.05\n", line: 2,
            .outOfRange(key: "LongPressSlopMm", value: "0.05", expected: "a number from 0.1 to 20 (millimetres)"),
            mentions: "0.1 to 20")
        let id = "an integer from 0 to 0xffff (hex with 0x, or decimal)"
        assertError(
            "[P]\nMatchVendor=0x10000\n", line: 2, .outOfRange(key: "MatchVendor", value: "0x10000", expected: id),
            mentions: "0xffff")
        // Overflow of every integer type is a range error, not a trap.
        let huge = "99999999999999999999999999"
        guard let e = parseError("[P]\nMatchBus=usb\nPressureFloor=\(huge)\n") else { return }
        XCTAssertEqual(e.line, 3)
        guard case .outOfRange(key: "PressureFloor", value: huge, _) = e.reason else { return XCTFail("\(e)") }
        guard let e2 = parseError("[P]\nMatchProduct=0xffffffffffffffffffff\n") else { return }
        guard case .outOfRange(key: "MatchProduct", _, _) = e2.reason else { return XCTFail("\(e2)") }
        guard let e3 = parseError("[P]\nPressureTop=2147483648\nMatchBus=usb\n") else { return }
        XCTAssertEqual(e3.line, 2)
    }

    func testErrorBadBoolSensitivityBus() {
        assertError(
            "[pressured]\nForceTouch=maybe\n", line: 2, .invalidBool(key: "ForceTouch", value: "maybe"),
            mentions: "expected on or off")
        assertError(
            "[pressured]\n\nSensitivity=hard\n", line: 3, .invalidSensitivity(key: "Sensitivity", value: "hard"),
            mentions: "light, medium or firm")
        assertError(
            "[P]\nMatchBus=firewire\n", line: 2, .invalidBus(key: "MatchBus", value: "firewire"),
            mentions: "MatchBus = firewire")
    }

    func testErrorKeyOutsideSection() {
        assertError(
            "# header comment\nForceTouch=on\n[pressured]\n", line: 2, .keyOutsideSection(key: "ForceTouch"),
            mentions: "ForceTouch")
    }

    func testErrorDuplicateKey() {
        assertError(
            "[P]\nMatchBus=usb\nPressureTop=9\n# again\nPressureTop = 10\n", line: 5,
            .duplicateKey(key: "PressureTop", firstLine: 3), mentions: "first on line 3")
        assertError(
            "[pressured]\nForceTouch=on\nForceTouch=off\n", line: 3,
            .duplicateKey(key: "ForceTouch", firstLine: 2), mentions: "ForceTouch")
        // The same key in two sections is fine.
        XCTAssertNoThrow(try parse("[A]\nMatchBus=usb\n[B]\nMatchBus=usb\n"))
    }

    func testErrorSectionHeaders() {
        assertError(
            "[pressured]\nForceTouch=on\n[FlatFrog 3200\nMatchBus=usb\n", line: 3,
            .unterminatedSectionHeader("[FlatFrog 3200"), mentions: "no closing ']'")
        assertError("[  ]\n", line: 1, .emptySectionTitle, mentions: "empty section title")
        assertError("\n\n[]  # nothing\n", line: 3, .emptySectionTitle, mentions: "[pressured]")
        assertError(
            "[P] MatchBus=usb\n", line: 1, .textAfterSectionHeader("MatchBus=usb"),
            mentions: "after the section header")
        assertError(
            "[pressured]\nForceTouch=on\n[P]\nMatchBus=usb\n[pressured]\n", line: 5,
            .duplicateSettingsSection(firstLine: 1), mentions: "first on line 1")
    }

    func testErrorMissingMatch() {
        // Reported at the header of the section, whether a later header or the end of the file closes it.
        assertError(
            "[pressured]\n[No match]\nPressureTop=100\n[Fine]\nMatchBus=usb\n", line: 2,
            .missingMatch(section: "No match"), mentions: "MatchName, MatchVendor")
        assertError(
            "[Fine]\nMatchBus=usb\n\n[Last]\nPressureFloor=3\n", line: 4, .missingMatch(section: "Last"),
            mentions: "[Last]")
        assertError("[Empty]\n", line: 1, .missingMatch(section: "Empty"), mentions: "Empty")
    }

    func testErrorMalformedGlob() {
        assertError(
            "[P]\nMatchName=Flat[Frog\n", line: 2,
            .malformedGlob(key: "MatchName", pattern: "Flat[Frog", problem: .unterminatedSet(offset: 4)),
            mentions: "MatchName pattern 'Flat[Frog' is malformed")
        assertError(
            "[P]\nMatchName=[z-a]\n", line: 2,
            .malformedGlob(key: "MatchName", pattern: "[z-a]", problem: .reversedRange("z-a")), mentions: "z-a")
        assertError(
            "[P]\nMatchName=abc\\\n", line: 2,
            .malformedGlob(key: "MatchName", pattern: "abc\\", problem: .danglingEscape), mentions: "escapes nothing")
    }

    func testErrorLineWithoutEquals() {
        assertError(
            "[pressured]\nForceTouch on\n", line: 2, .lineWithoutEquals("ForceTouch on"), mentions: "ForceTouch on")
        assertError("[pressured]\n = on\n", line: 2, .emptyKey, mentions: "key before '='")
        assertError(
            "[P]\nMatchName=   # nothing\n", line: 2,
            .emptyValue(key: "MatchName", expected: "a glob such as *FlatFrog*"), mentions: "MatchName has no value")
    }
}
