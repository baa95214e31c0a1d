
import CLibevdev
import Foundation
import Glibc
import PressureCore
@testable import PressureDeviceTools
@testable import PressureLinux
import XCTest

final class DevicesToolTests: XCTestCase {
    func row(
        _ mem: MemoryEvdev, configuration: Configuration? = nil, settings: GestureSettings = GestureSettings(),
        store: LearnedStateStore? = nil
    ) throws -> DevicesTool.Row {
        let d = EvdevDescription.description(of: mem.dev)
        return try XCTUnwrap(try DevicesTool.row(
            node: "/dev/input/event5", description: d, configuration: configuration, settings: settings, store: store))
    }

    func testTableShowsKindPressureForceAndCalibration() throws {
        let screen = try row(MemoryEvdev.multiTouchScreen())
        let resistive = try row(MemoryEvdev.resistivePanel())
        // Nothing learned yet (no state file): the daemon would be learning its average touch.
        XCTAssertEqual(screen.forceCapability, .unavailable)
        let text = DevicesTool.table([screen, resistive])
        let lines = text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 7, text)
        XCTAssertTrue(lines[0].hasPrefix("NODE"), text)
        XCTAssertTrue(lines[1].contains("Test Capacitive Screen"), text)
        XCTAssertTrue(lines[1].contains("touchscreen"), text)
        XCTAssertTrue(lines[1].contains("10 slots"), text)
        XCTAssertTrue(lines[1].contains("0..255, no resolution"), text)
        XCTAssertTrue(lines[1].contains("unavailable (learning, 0 of 8 touches)"), text)
        XCTAssertTrue(lines[2].hasPrefix("    calibration: floor 0 (default)"), text)
        XCTAssertEqual(lines[3], "    force: unavailable: learning the average touch (0 of 8 ordinary touches); average not learned yet, floor 0, top 255", text)
        XCTAssertTrue(lines[4].contains("single"), text)
        // Columns line up: every row's NAME starts where the header's does.
        let nameColumn = try XCTUnwrap(lines[0].range(of: "NAME")).lowerBound.utf16Offset(in: lines[0])
        XCTAssertEqual(try XCTUnwrap(lines[1].range(of: "Test")).lowerBound.utf16Offset(in: lines[1]), nameColumn)
    }

    func testForceTouchOffAndNoPressure() throws {
        var settings = GestureSettings()
        settings.forceTouchEnabled = false
        let off = try row(MemoryEvdev.multiTouchScreen(), settings: settings)
        XCTAssertEqual(off.forceCapability, .unavailable)
        XCTAssertEqual(DevicesTool.force(off), "unavailable (force touch off)")
        XCTAssertEqual(off.force.reason, .turnedOff)

        let mem = try MemoryEvdev(name: "No Pressure")
        mem.property(INPUT_PROP_DIRECT)
        mem.abs(ABS_MT_SLOT, 0, 1)
        mem.abs(ABS_MT_POSITION_X, 0, 100)
        mem.abs(ABS_MT_POSITION_Y, 0, 100)
        mem.abs(ABS_MT_TRACKING_ID, 0, 100)
        let none = try row(mem)
        XCTAssertNil(none.calibration)
        XCTAssertEqual(DevicesTool.force(none), "unavailable (no pressure)")
        XCTAssertTrue(DevicesTool.jsonLine(none).contains("\"pressure\":null"))
        XCTAssertTrue(DevicesTool.jsonLine(none).contains("\"calibration\":null,"))
    }

    func testJSONLineIsValidJSON() throws {
        let mem = try MemoryEvdev.multiTouchScreen()
        libevdev_set_name(mem.dev, "Odd \"name\"\\\t\u{1}")
        let line = DevicesTool.jsonLine(try row(mem))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["name"] as? String, "Odd \"name\"\\\t\u{1}")
        XCTAssertEqual(object["node"] as? String, "/dev/input/event5")
        XCTAssertEqual(object["kind"] as? String, "touchscreen")
        XCTAssertEqual(object["slots"] as? Int, 10)
        XCTAssertEqual(object["vendor"] as? Int, 0x04f3)
        XCTAssertEqual((object["pressure"] as? [String: Any])?["max"] as? Int, 255)
        let calibration = try XCTUnwrap(object["calibration"] as? [String: Any])
        XCTAssertEqual((calibration["sources"] as? [String: Any])?["top"] as? String, "default")
        XCTAssertEqual((object["filter"] as? [String: Any])?["on"] as? Bool, false)
    }

    /// What the daemon saved for a device is what `devices` shows: the learned average, the touches it
    /// rests on, the thresholds it gives; a damaged file is ignored and the device shows as learning.
    func testWhatTheDaemonLearnedIsShownFromItsStateFile() throws {
        let dir = NSTemporaryDirectory() + "pressured-devices-state-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let mem = try MemoryEvdev.multiTouchScreen()
        let device = try TouchDevice(EvdevDescription.description(of: mem.dev))
        let key = try XCTUnwrap(LearnedDeviceKey(device))
        var learner = AverageTouchLearner(floor: 0, top: 255)
        for (i, peak) in [100, 110, 105, 95, 100, 108, 102, 98, 104, 101].enumerated() {
            learner.observe(ContactSummary(
                ending: .lifted, peak: Int32(peak), lowest: 10, began: Timestamp(microseconds: Int64(i) * 1_000_000),
                ended: Timestamp(microseconds: Int64(i) * 1_000_000 + 80_000), movedBeyondSlop: false))
        }
        let store = LearnedStateStore(directory: dir)
        try OutputFile.replace(store.path(for: key), with: LearnedAverageFile.encode(learner, for: key))
        let learned = try row(mem, store: store)
        XCTAssertEqual(learned.forceCapability, .available)
        XCTAssertEqual(learned.force.averageSource, .learned)
        XCTAssertEqual(learned.force.samples, 10)
        XCTAssertEqual(learned.force.peekRaw, 143)  // 1.4 × the average of about 102
        let text = DevicesTool.table([learned])
        XCTAssertTrue(text.contains("force: available, max 2.50; average 102.0 learned from 10 samples (10 accepted), floor 0, top 255; peek 143 (1.40), pop 204 (2.00) (learned)"), text)
        try OutputFile.replace(store.path(for: key), with: Array("{\"format\":\"something else\"}".utf8))
        XCTAssertEqual(try row(mem, store: store).force.reason?.code, "learning")
    }

    func testCalibrationFromConfigurationNamesItsSource() throws {
        let path = NSTemporaryDirectory() + "pressured-devices-\(getpid()).conf"
        let text = "[Test screen]\nMatchName = Test Capacitive*\nPressureAverage = 60\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { unlink(path) }
        let configuration = try ConfigurationLoader.load(paths: [path])
        let r = try row(MemoryEvdev.multiTouchScreen(), configuration: configuration)
        XCTAssertEqual(r.calibration?.calibration.average, 60)
        XCTAssertEqual(r.calibration?.sources.average, "[Test screen] \(path):3")
        XCTAssertEqual(r.calibration?.sources.floor, "default")
    }

    /// Filter mode where the configuration turns it on, cancelling: a panel with slots can have its touches
    /// cancelled, a single-touch touchscreen through its clone's one slot, a protocol A panel cannot and
    /// says it is served as it is; the JSON says each.
    func testFilterModeSaysWhetherTouchesCanBeCancelled() throws {
        let path = NSTemporaryDirectory() + "pressured-devices-filter-\(getpid()).conf"
        let text = "[pressured]\nFilter = on\nFilterMethod = cancel\n"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        defer { unlink(path) }
        let configuration = try ConfigurationLoader.load(paths: [path])
        let screen = try row(MemoryEvdev.multiTouchScreen(), configuration: configuration)
        let resistive = try row(MemoryEvdev.resistivePanel(), configuration: configuration)
        let anonymous = try MemoryEvdev(name: "Test Protocol A Screen")
        anonymous.property(INPUT_PROP_DIRECT)
        anonymous.abs(ABS_MT_POSITION_X, 0, 4095)
        anonymous.abs(ABS_MT_POSITION_Y, 0, 4095)
        let protocolA = try row(anonymous, configuration: configuration)
        let lines = DevicesTool.table([screen, resistive, protocolA]).split(separator: "\n").map(String.init)
        let source = "[pressured] \(path):2"
        let method = " (FilterMethod = cancel, [pressured] \(path):3)"
        XCTAssertEqual(lines.filter { $0.hasPrefix("    filter: ") }, [
            "    filter: on (\(source)): grabbed, the compositor gets a clone on which the touches a gesture takes are cancelled\(method)",
            "    filter: on (\(source)): grabbed, the compositor gets a clone with one multi-touch slot, on which the touch a gesture takes is cancelled\(method)",
            "    filter: on (\(source)), but its touches cannot be cancelled (protocol A: anonymous contacts, no slots): served as it is",
        ])
        XCTAssertTrue(DevicesTool.jsonLine(screen).contains(#""filter":{"on":true,"palms":false,"cancellable":true,"source":"[pressured] "#))
        XCTAssertTrue(DevicesTool.jsonLine(resistive).contains(#""cancellable":true"#))
        XCTAssertTrue(DevicesTool.jsonLine(protocolA).contains(#""cancellable":false"#))
        XCTAssertTrue(DevicesTool.jsonLine(screen).contains(#""method":"cancel","methodSource":"[pressured] "#))
        XCTAssertFalse(DevicesTool.table([try row(MemoryEvdev.multiTouchScreen())]).contains("filter:"), "off: no line")
    }

    /// The actions in force for each panel, a line each with its section; in the JSON where there are any.
    func testActionsInForceAreShownWithTheirSections() throws {
        let configuration = try Configuration.parse("""
            [action]
            Gesture = longPress
            Does = rightClick
            [action]
            MatchName = Nothing*
            Gesture = pop
            Does = middleClick
            [action]
            Gesture = pop
            Does = key:Ctrl+C
            Area = 960x1080+960+0
            """, file: "a.conf")
        let screen = try row(MemoryEvdev.multiTouchScreen(), configuration: configuration)
        let lines = DevicesTool.table([screen]).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("    action: ") }, [
            "    action: longPress → rightClick ([action] a.conf:1)",
            "    action: pop → key:Ctrl+C in 960x1080+960+0 ([action] a.conf:8)",
        ])
        XCTAssertTrue(DevicesTool.jsonLine(screen).hasSuffix(
            #","actions":[{"gesture":"longPress","does":"rightClick","areas":[],"source":"[action] a.conf:1"},"#
                + #"{"gesture":"pop","does":"key:Ctrl+C","areas":["960x1080+960+0"],"source":"[action] a.conf:8"}]}"#))
        let plain = try row(MemoryEvdev.multiTouchScreen(), configuration: Configuration())
        XCTAssertFalse(DevicesTool.table([plain]).contains("action:"), "none: no line")
        XCTAssertFalse(DevicesTool.jsonLine(plain).contains("actions"), "none: no key")
    }

    /// Filter mode holding, by default: the line and the JSON say so, and where it comes from.
    func testFilterModeSaysItHoldsByDefault() throws {
        let path = NSTemporaryDirectory() + "pressured-devices-hold-\(getpid()).conf"
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("[pressured]\nFilter = on\n".utf8)))
        defer { unlink(path) }
        let configuration = try ConfigurationLoader.load(paths: [path])
        let screen = try row(MemoryEvdev.multiTouchScreen(), configuration: configuration)
        let resistive = try row(MemoryEvdev.resistivePanel(), configuration: configuration)
        let lines = DevicesTool.table([screen, resistive]).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("    filter: ") }, [
            "    filter: on ([pressured] \(path):2): grabbed, the compositor gets a clone on which the touches a gesture could take are held back until pressured knows what they are (FilterMethod = hold, default)",
            "    filter: on ([pressured] \(path):2): grabbed, the compositor gets a clone with one multi-touch slot, on which the touch a gesture could take is held back until pressured knows what it is (FilterMethod = hold, default)",
        ])
        XCTAssertTrue(DevicesTool.jsonLine(screen).contains(#""method":"hold","methodSource":"default"}"#))
    }

    func testEmptyInputDirectoryFindsNothingAndSucceeds() throws {
        let dir = NSTemporaryDirectory() + "pressured-devices-empty-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertEqual(DevicesTool.main(["--input-dir", dir, "--json"]), 0)
        XCTAssertEqual(DevicesTool.discover(inputDirectory: dir).nodes, [])
    }

    func testUnreadableNodeFailsAndBadUsageIsTwo() throws {
        let dir = NSTemporaryDirectory() + "pressured-devices-bad-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/event0", contents: nil))
        XCTAssertEqual(DevicesTool.main(["--input-dir", dir, "--json"]), 1)
        XCTAssertEqual(DevicesTool.main(["--bogus"]), 2)
        XCTAssertEqual(DevicesTool.main(["extra"]), 2)
    }
}
