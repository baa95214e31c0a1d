import XCTest

@testable import PressureCore

final class ConfigurationTests: XCTestCase {
    // MARK: Fixtures

    static let flatFrog = DeviceDescription(
        name: "FlatFrog 3200 Touch", identity: DeviceIdentity(bus: 0x03, vendor: 0x25b5, product: 0x0002),
        absInfo: [AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 1024)])
    static let pressureAxis = AbsInfo(minimum: 0, maximum: 1024)
    static let other = DeviceDescription(
        name: "ELAN Touchscreen", identity: DeviceIdentity(bus: 0x18, vendor: 0x04f3, product: 0x2a1c))

    static let fullExample = """
        # pressured configuration
        [pressured]
        ForceTouch = off            # on|off
        Sensitivity=firm
        LongPressMs=650
        LongPressSlopMm = 3.5
        QuickActionsDistanceMm=14

        [FlatFrog 3200]
        MatchName=*FlatFrog*
        MatchVendor=0x25b5
        MatchProduct=2
        MatchBus=usb
        PressureFloor=12
        PressureAverage=300
        PressureTop=1000
        """

    func parse(_ text: String, file: String = "test.conf") throws -> Configuration {
        try Configuration.parse(text, file: file)
    }

    /// Parses `text`, expecting an error; returns it.
    func parseError(_ text: String, file: String = "bad.conf", line: UInt = #line) -> ConfigurationError? {
        do {
            let c = try Configuration.parse(text, file: file)
            XCTFail("expected an error, parsed \(c)", line: line)
            return nil
        } catch {
            return error
        }
    }

    func assertError(
        _ text: String, line expectedLine: Int, _ reason: ConfigurationError.Reason, mentions: String,
        file: StaticString = #filePath, line testLine: UInt = #line
    ) {
        guard let e = parseError(text, line: testLine) else { return }
        XCTAssertEqual(e.file, "bad.conf", file: file, line: testLine)
        XCTAssertEqual(e.line, expectedLine, "\(e)", file: file, line: testLine)
        XCTAssertEqual(e.reason, reason, file: file, line: testLine)
        XCTAssertTrue(e.description.hasPrefix("bad.conf:\(expectedLine): "), e.description, file: file, line: testLine)
        XCTAssertTrue(e.description.contains(mentions), e.description, file: file, line: testLine)
    }

    // MARK: Parsing

    func testParsesFullExample() throws {
        let c = try parse(Self.fullExample, file: "panels.conf")
        let s = c.settings
        XCTAssertFalse(s.forceTouchEnabled)
        XCTAssertEqual(s.sensitivity, .firm)
        XCTAssertEqual(s.longPressDuration, .milliseconds(650))
        XCTAssertEqual(s.longPressSlopMillimetres, 3.5)
        XCTAssertEqual(s.quickActionsDistanceMillimetres, 14)
        XCTAssertEqual(c.settingsSections.count, 1)
        XCTAssertEqual(c.settingsSections.first?.line, 2)

        XCTAssertEqual(c.sections.count, 1)
        let d = try XCTUnwrap(c.sections.first)
        XCTAssertEqual(d.title, "FlatFrog 3200")
        XCTAssertEqual(d.file, "panels.conf")
        XCTAssertEqual(d.line, 9)
        XCTAssertEqual(d.match.name?.pattern, "*FlatFrog*")
        XCTAssertEqual(d.match.vendor, 0x25b5)
        XCTAssertEqual(d.match.product, 2)
        XCTAssertEqual(d.match.bus, 0x03)
        XCTAssertEqual(d.floor, 12)
        XCTAssertEqual(d.average, 300)
        XCTAssertEqual(d.top, 1000)
        XCTAssertEqual(d.keyLines["PressureTop"], 16)
        XCTAssertEqual(d.match.description, "name *FlatFrog*, vendor 0x25b5, product 0x0002, bus usb")
    }

    func testEmptyFileGivesDefaults() throws {
        let c = try parse("# nothing here\n\n   \n")
        XCTAssertEqual(c.settings, GestureSettings())
        XCTAssertTrue(c.sections.isEmpty)
    }

    func testPartialSettingsKeepDefaults() throws {
        let c = try parse("[pressured]\nSensitivity=light\n")
        var expected = GestureSettings()
        expected.sensitivity = .light
        XCTAssertEqual(c.settings, expected)
    }

    func testCRLFWhitespaceAndInlineComments() throws {
        let text =
            "\u{FEFF}[ pressured ]   # globals\r\n\tLongPressMs\t=\t1000\t# ms\r\n[ Panel ]\r\nMatchBus = 0x18 \r\n"
        let c = try parse(text)
        XCTAssertEqual(c.settings.longPressDuration, .milliseconds(1000))
        XCTAssertEqual(c.sections.first?.title, "Panel")
        XCTAssertEqual(c.sections.first?.match.bus, 0x18)
        XCTAssertEqual(c.sections.first?.line, 3)
    }

    func testValueForms() throws {
        let c = try parse("""
            [a]
            MatchVendor=9653
            MatchBus=BlueTooth
            PressureFloor=-5
            PressureAverage=0x10
            [b]
            MatchBus=ps2
            [pressured]
            ForceTouch=yes
            LongPressSlopMm=.5
            """)
        XCTAssertEqual(c.sections[0].match.vendor, 0x25b5)
        XCTAssertEqual(c.sections[0].match.bus, 0x05)
        XCTAssertEqual(c.sections[0].floor, -5)
        XCTAssertEqual(c.sections[0].average, 16)
        XCTAssertEqual(c.sections[1].match.bus, 0x11)
        XCTAssertTrue(c.settings.forceTouchEnabled)
        XCTAssertEqual(c.settings.longPressSlopMillimetres, 0.5)
    }

    func testBusNamesMatchLinuxInputH() {
        let expected: [String: UInt16] = [
            "pci": 0x01, "usb": 0x03, "hil": 0x04, "bluetooth": 0x05, "virtual": 0x06, "i8042": 0x11,
            "rs232": 0x13, "serial": 0x13, "i2c": 0x18, "host": 0x19, "gsc": 0x1A, "spi": 0x1C, "rmi": 0x1D,
            "cec": 0x1E, "intel-ishtp": 0x1F, "amd-sfh": 0x20,
        ]
        for (name, number) in expected { XCTAssertEqual(DeviceMatch.busNumber(named: name), number, name) }
        XCTAssertNil(DeviceMatch.busNumber(named: "firewire"))
        XCTAssertEqual(DeviceMatch.busName(0x11), "i8042")
    }

    // MARK: Globs

    func glob(_ p: String) throws -> Glob { try Glob(p) }

    func testGlobStarsAndQuestionMarks() throws {
        let g = try glob("*FlatFrog*")
        XCTAssertTrue(g.matches("FlatFrog 3200 Touch"))
        XCTAssertTrue(g.matches("USB FlatFrog"))
        XCTAssertTrue(g.matches("FlatFrog"))
        XCTAssertFalse(g.matches("flatfrog 3200"))  // case-sensitive
        XCTAssertFalse(g.matches("Flat Frog"))
        XCTAssertTrue(try glob("ELAN?0??").matches("ELAN9008"))
        XCTAssertFalse(try glob("ELAN?0??").matches("ELAN900"))
        XCTAssertFalse(try glob("ELAN?").matches("ELAN"))
        XCTAssertTrue(try glob("*").matches(""))
        XCTAssertTrue(try glob("").matches(""))
        XCTAssertFalse(try glob("").matches("a"))
        XCTAssertTrue(try glob("a**b").matches("ab"))
        XCTAssertTrue(try glob("*b").matches("abab"))
        XCTAssertFalse(try glob("*ba").matches("abab"))
        XCTAssertTrue(try glob("Wacom*Finger").matches("Wacom HID 52C2 Finger"))
        XCTAssertTrue(try glob("\\*star\\?").matches("*star?"))
        XCTAssertFalse(try glob("\\*star").matches("my star"))
    }

    func testGlobClasses() throws {
        XCTAssertTrue(try glob("Pad[0-9]").matches("Pad7"))
        XCTAssertFalse(try glob("Pad[0-9]").matches("PadX"))
        XCTAssertTrue(try glob("[abc]x").matches("bx"))
        XCTAssertFalse(try glob("[abc]x").matches("dx"))
        XCTAssertTrue(try glob("[!a]x").matches("bx"))
        XCTAssertFalse(try glob("[!a]x").matches("ax"))
        XCTAssertTrue(try glob("[^a-c]").matches("z"))
        XCTAssertFalse(try glob("[^a-c]").matches("b"))
        XCTAssertTrue(try glob("[]]").matches("]"))
        XCTAssertTrue(try glob("[a-]").matches("-"))
        XCTAssertTrue(try glob("*[Tt]ouch[Ss]creen*").matches("Goodix TouchScreen"))
        XCTAssertTrue(try glob("[A-Za-z]*").matches("éclair") == false)
        XCTAssertThrowsError(try glob("[!"))
        XCTAssertThrowsError(try glob("[]"))
    }

    func testPathologicalGlobIsLinear() throws {
        // Exponential backtracking would never finish here; the greedy matcher takes pattern × text steps.
        let long = String(repeating: "a", count: 20_000)
        XCTAssertFalse(try glob("*a*a*a*a*a*a*a*a*a*a*a*a*b").matches(long))
        XCTAssertTrue(try glob("*a*a*a*a*a*a*a*a*a*a*a*a*").matches(long))
        XCTAssertFalse(try glob("*?*?*?*?*?*?*?*?*?*?*?*?b").matches(long))
    }

    // MARK: Matching

    func testMatchByEachKey() throws {
        let d = Self.flatFrog
        XCTAssertTrue(DeviceMatch(vendor: 0x25b5).matches(d))
        XCTAssertFalse(DeviceMatch(vendor: 0x25b6).matches(d))
        XCTAssertTrue(DeviceMatch(product: 2).matches(d))
        XCTAssertFalse(DeviceMatch(product: 3).matches(d))
        XCTAssertTrue(DeviceMatch(bus: 0x03).matches(d))
        XCTAssertFalse(DeviceMatch(bus: 0x05).matches(d))
        XCTAssertTrue(DeviceMatch(name: try glob("FlatFrog*")).matches(d))
        XCTAssertFalse(DeviceMatch(name: try glob("ELAN*")).matches(d))
        // AND: one mismatching key fails the section.
        XCTAssertTrue(DeviceMatch(name: try glob("*Frog*"), vendor: 0x25b5, product: 2, bus: 3).matches(d))
        XCTAssertFalse(DeviceMatch(name: try glob("*Frog*"), vendor: 0x25b5, product: 2, bus: 0x18).matches(d))
        let c = try parse("[usb]\nMatchBus=usb\n[i2c]\nMatchBus=i2c\n[elan]\nMatchVendor=0x04f3\nMatchBus=0x18\n")
        XCTAssertEqual(c.matchingSections(for: d).map(\.title), ["usb"])
        XCTAssertEqual(c.matchingSections(for: Self.other).map(\.title), ["i2c", "elan"])
    }

    // MARK: Calibration and merging

    func testFullSectionCalibration() throws {
        let c = try parse(Self.fullExample, file: "panels.conf")
        let r = try c.calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis)
        XCTAssertEqual(r.calibration, ForceCalibration(floor: 12, average: 300, top: 1000))
        XCTAssertEqual(
            r.sources,
            CalibrationSources(
                floor: "[FlatFrog 3200] panels.conf:14", average: "[FlatFrog 3200] panels.conf:15",
                top: "[FlatFrog 3200] panels.conf:16"))
        XCTAssertEqual(r.matchedSections.map(\.title), ["FlatFrog 3200"])
    }

    func testNoMatchingSectionGivesUncalibratedDefaults() throws {
        let c = try parse(Self.fullExample)
        let r = try c.calibration(for: Self.other, pressureAxis: Self.pressureAxis)
        XCTAssertEqual(r.calibration, ForceCalibration.uncalibrated(axis: Self.pressureAxis))
        XCTAssertEqual(r.calibration, ForceCalibration(floor: 0, average: 461, top: 1024))
        XCTAssertEqual(r.sources, CalibrationSources(floor: "default", average: "default", top: "default"))
        XCTAssertTrue(r.matchedSections.isEmpty)
    }

    func testPartialSectionFallsBackToDefaults() throws {
        let c = try parse("[Floor only]\nMatchName=*FlatFrog*\nPressureFloor=20\n", file: "a.conf")
        let r = try c.calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis)
        XCTAssertEqual(r.calibration, ForceCalibration(floor: 20, average: 461, top: 1024))
        XCTAssertEqual(r.sources, CalibrationSources(floor: "[Floor only] a.conf:3"))
    }

    func testLaterSectionWinsPerKey() throws {
        let c = try parse(
            """
            [Generic USB]
            MatchBus=usb
            PressureFloor=5
            PressureAverage=200
            PressureTop=900
            [FlatFrog]
            MatchVendor=0x25b5
            PressureAverage=300
            [Not this one]
            MatchVendor=0x1234
            PressureTop=10
            """, file: "q.conf")
        let r = try c.calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis)
        XCTAssertEqual(r.calibration, ForceCalibration(floor: 5, average: 300, top: 900))
        XCTAssertEqual(
            r.sources,
            CalibrationSources(
                floor: "[Generic USB] q.conf:3", average: "[FlatFrog] q.conf:8", top: "[Generic USB] q.conf:5"))
        XCTAssertEqual(r.matchedSections.map(\.title), ["Generic USB", "FlatFrog"])
    }

    func testLaterFileWins() throws {
        let system = try parse(
            "[pressured]\nSensitivity=firm\nLongPressMs=700\n"
                + "[FlatFrog]\nMatchName=*FlatFrog*\nPressureFloor=12\nPressureTop=1000\n",
            file: "/usr/share/pressured/50-flatfrog.conf")
        let local = try parse(
            "[pressured]\nSensitivity=light\n[My FlatFrog]\nMatchVendor=0x25b5\nPressureTop=800\n",
            file: "/etc/pressured/local.conf")
        let merged = Configuration.merged([system, local])
        XCTAssertEqual(merged.sections.map(\.title), ["FlatFrog", "My FlatFrog"])
        XCTAssertEqual(merged.settings.sensitivity, .light)  // later file
        XCTAssertEqual(merged.settings.longPressDuration, .milliseconds(700))  // only the earlier file sets it
        let r = try merged.calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis)
        XCTAssertEqual(r.calibration, ForceCalibration(floor: 12, average: 461, top: 800))
        XCTAssertEqual(r.sources.floor, "[FlatFrog] /usr/share/pressured/50-flatfrog.conf:6")
        XCTAssertEqual(r.sources.average, "default")
        XCTAssertEqual(r.sources.top, "[My FlatFrog] /etc/pressured/local.conf:5")
        // Reversed order: the system file wins.
        let reversed = try Configuration.merged([local, system]).calibration(
            for: Self.flatFrog, pressureAxis: Self.pressureAxis)
        XCTAssertEqual(reversed.calibration.top, 1000)
        XCTAssertEqual(Configuration.merged([local, system]).settings.sensitivity, .firm)
        XCTAssertEqual(Configuration.merged([]).settings, GestureSettings())
    }

    func testInvalidMergedOrderIsAnError() throws {
        // Each file is fine alone; together the floor ends above the average.
        let a = try parse("[A]\nMatchBus=usb\nPressureAverage=100\n", file: "a.conf")
        let b = try parse("\n[B]\nMatchVendor=0x25b5\nPressureFloor=150\n", file: "b.conf")
        XCTAssertNoThrow(try a.calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis))
        XCTAssertNoThrow(try b.calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis))
        do {
            _ = try Configuration.merged([a, b]).calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.file, "b.conf")
            XCTAssertEqual(error.line, 2)
            XCTAssertEqual(
                error.reason,
                .invalidCalibration(
                    device: "FlatFrog 3200 Touch", floor: 150, average: 100, top: 1024,
                    sources: CalibrationSources(floor: "[B] b.conf:4", average: "[A] a.conf:3", top: "default")))
            XCTAssertTrue(error.description.hasPrefix("b.conf:2: calibration for 'FlatFrog 3200 Touch' is invalid"))
            XCTAssertTrue(error.description.contains("[A] a.conf:3"), error.description)
            XCTAssertTrue(error.description.contains("[B] b.conf:4"), error.description)
        }
    }

    func testAverageAboveTopAndEqualValues() throws {
        let c = try parse("[A]\nMatchBus=usb\nPressureAverage=500\nPressureTop=400\n")
        XCTAssertThrowsError(try c.calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis))
        let equal = try parse("[A]\nMatchBus=usb\nPressureAverage=400\nPressureTop=400\n")
        let r = try equal.calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis)
        XCTAssertEqual(r.calibration.maximumPossibleForce, 1)
    }

    func testSpanTooLargeIsAnErrorNotATrap() throws {
        let c = try parse("[A]\nMatchBus=usb\nPressureFloor=-2000000000\nPressureAverage=0\nPressureTop=2000000000\n")
        XCTAssertThrowsError(try c.calibration(for: Self.flatFrog, pressureAxis: Self.pressureAxis)) { error in
            XCTAssertTrue("\(error)".contains("spans more than"), "\(error)")
        }
        // Hostile axes from a device are errors too, never traps.
        let empty = Configuration()
        let huge = AbsInfo(minimum: Int32.min, maximum: Int32.max)
        XCTAssertThrowsError(try empty.calibration(for: Self.other, pressureAxis: huge))
        let stuck = AbsInfo(minimum: Int32.max, maximum: Int32.max)
        XCTAssertThrowsError(try empty.calibration(for: Self.other, pressureAxis: stuck))
        let reversed = AbsInfo(minimum: 100, maximum: 0)
        XCTAssertNoThrow(try empty.calibration(for: Self.other, pressureAxis: reversed))
    }
}
