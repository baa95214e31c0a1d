import Foundation
import Glibc
@testable import PressureCapture
@testable import PressureCore
@testable import PressureDeviceTools
@testable import PressureLinux
import TestSupport
import XCTest

/// `pressurectl record` end to end. A live device cannot be opened here (no /dev/input), so its
/// failures are checked on nodes that are missing or not devices, and its writing path through
/// `--from-capture`, which streams a capture frame by frame through the same `CaptureRecording`.
final class RecordCommandTests: XCTestCase {
    func testAMissingNodeFailsAndSaysWhereToLook() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("never.evemu")
        let r = try Executables.run("pressurectl", ["record", "/dev/input/event999", "-o", out.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("/dev/input/event999: open: No such file or directory"), r.stderr)
        XCTAssertTrue(r.stderr.contains("`pressurectl devices` lists the touch devices"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing written for a device never opened")
    }

    func testARegularFileIsNotAnInputDevice() throws {
        let dir = try temporaryFolder(self)
        let file = dir.appendingPathComponent("not-a-device")
        try "hello\n".write(to: file, atomically: true, encoding: .utf8)
        let r = try Executables.run("pressurectl", ["record", file.path, "--format", "libinput"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("not an input device node (expected /dev/input/eventN)"), r.stderr)
        let dirResult = try Executables.run("pressurectl", ["record", dir.path])
        XCTAssertEqual(dirResult.status, 1)
        XCTAssertTrue(dirResult.stderr.contains("pressurectl devices"), dirResult.stderr)
    }

    /// Running as root here, a permission error cannot be provoked; its wording is checked directly.
    func testPermissionErrorsNameTheInputGroup() {
        let e = InputDeviceError(underlying: SystemError(call: "open", subject: "/dev/input/event3", errno: EACCES))
        XCTAssertTrue(e.description.hasPrefix("/dev/input/event3: open: Permission denied; "), e.description)
        XCTAssertTrue(e.description.contains("`input` group"), e.description)
        XCTAssertTrue(e.description.contains("run as root"), e.description)
    }

    func testUsageAndHelp() throws {
        let help = try Executables.run("pressurectl", ["record", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("usage: pressurectl record DEVICE"), help.stdout)
        for bad in [["record"], ["record", "--format", "yaml", "/dev/input/event0"], ["record", "a", "b"],
                    ["record", "--desc", "d", "/dev/input/event0"]] {
            let r = try Executables.run("pressurectl", bad)
            XCTAssertEqual(r.status, 2, "\(bad)")
            XCTAssertTrue(r.stderr.contains("usage: pressurectl record"), r.stderr)
        }
    }

    /// Both formats, written the way a live recording is, read back as the capture's events from time 0,
    /// and replay to the same gestures.
    func testTheRecordingPathWritesFilesOurReadersAndReplayTake() throws {
        let dir = try temporaryFolder(self)
        for fixture in ["peek-pop.evemu", "elan-two-devices.yml", "protocol-a.evemu"] {
            let source = "Tests/Fixtures/\(fixture)"
            let original = try CaptureLoader.load(path: Executables.repoRoot.appendingPathComponent(source).path)
            let origin = try XCTUnwrap(original.events.first).time.microseconds
            let gestures = try Executables.run("pressurectl", ["replay", source]).stdout
                .split(separator: "\n").map { $0.split(separator: ",").first ?? "" }
            for format in RecordingFormat.allCases {
                let out = dir.appendingPathComponent("\(fixture).\(format.rawValue)")
                let r = try Executables.run("pressurectl", ["record", "--from-capture", source, "--format", format.rawValue, "-o", out.path])
                XCTAssertEqual(r.status, 0, r.stderr)
                XCTAssertTrue(r.stderr.contains("\(original.events.count) events written to \(out.path)"), r.stderr)
                let back = try CaptureLoader.load(path: out.path)
                XCTAssertEqual(back.device, original.device.withoutSynCodesIf(format == .evemu), "\(fixture) \(format)")
                XCTAssertEqual(back.events.map { $0.time.microseconds }, original.events.map { $0.time.microseconds - origin })
                XCTAssertEqual(back.events.map { [Int($0.type), Int($0.code), Int($0.value)] },
                               original.events.map { [Int($0.type), Int($0.code), Int($0.value)] }, "\(fixture) \(format)")
                let replayed = try Executables.run("pressurectl", ["replay", out.path])
                XCTAssertEqual(replayed.status, 0, replayed.stderr)
                XCTAssertEqual(replayed.stdout.split(separator: "\n").map { $0.split(separator: ",").first ?? "" }, gestures,
                               "\(fixture) \(format): the same gestures")
            }
        }
    }

    func testStandardOutputByDefaultAndAnUnwritableOutputFails() throws {
        let r = try Executables.run("pressurectl", ["record", "--from-capture", "Tests/Fixtures/no-pressure.evemu"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("# EVEMU 1.3\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("\nN: pressured fixture: no pressure\n"), r.stdout)
        let bad = try Executables.run("pressurectl", [
            "record", "--from-capture", "Tests/Fixtures/no-pressure.evemu", "-o", "/nonexistent/folder/x.evemu",
        ])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("/nonexistent/folder/x.evemu: open: No such file or directory"), bad.stderr)
    }

    /// What `libinput replay` loads: plain YAML with version 1, one device, its evdev description and
    /// udev properties, and the events as frames. Checked with PyYAML where it is installed.
    func testTheLibinputRecordingIsYAMLThatLibinputsLoaderAccepts() throws {
        let dir = try temporaryFolder(self)
        let out = dir.appendingPathComponent("r.yml")
        let r = try Executables.run("pressurectl", ["record", "--from-capture", "Tests/Fixtures/peek-pop.evemu", "--format", "libinput", "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let script = """
            import sys, yaml
            d = yaml.safe_load(open(sys.argv[1]))
            assert d["version"] == 1 and d["ndevices"] == len(d["devices"]) == 1
            dev = d["devices"][0]
            ev = dev["evdev"]
            assert len(ev["id"]) == 4 and ev["name"] == "pressured fixture: peek-pop"
            for code in ev["codes"][3]: assert code in ev["absinfo"], code
            assert dev["udev"]["properties"] == []
            frames = dev["events"]
            assert all(f["evdev"][-1][2:4] == [0, 0] for f in frames)
            print(sum(len(f["evdev"]) for f in frames))
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", script, out.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = Pipe()
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { throw XCTSkip("no python3") }
        try p.run()
        p.waitUntilExit()
        let printed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        if p.terminationStatus != 0 && printed.isEmpty {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            check.arguments = ["-c", "import yaml"]
            try check.run()
            check.waitUntilExit()
            if check.terminationStatus != 0 { throw XCTSkip("PyYAML is not installed") }
        }
        XCTAssertEqual(p.terminationStatus, 0)
        XCTAssertEqual(printed, "276\n")
    }
}

extension DeviceDescription {
    /// evemu has no place for EV_SYN's codes (its `B: 00` line is fixed), so they do not survive it.
    func withoutSynCodesIf(_ condition: Bool) -> DeviceDescription {
        guard condition else { return self }
        var d = self
        d.codes[EventType.syn] = nil
        return d
    }
}
