import Foundation
import TestSupport
import XCTest
@testable import PressureCore

/// `pressurectl calibrate` end to end through `--from-capture`, which runs the same session as a live
/// device; the configuration it writes must be one `pressurectl replay --config` (the daemon's loader)
/// accepts and applies.
final class CalibrateCommandTests: XCTestCase {
    func testFromACaptureItWritesASectionThatReplayApplies() throws {
        let dir = try temporaryFolder(self)
        let capture = try calibrationCapture(in: dir)
        let conf = dir.appendingPathComponent("calibrated.conf")
        let r = try Executables.run("pressurectl", [
            "calibrate", "--from-capture", capture.path, "--taps-until", "5.5", "--yes", "--write", conf.path,
        ])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("tap 5: peak 180 (touch-down 25, lift 25)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("firm press 3: peak 900"), r.stderr)
        XCTAssertTrue(r.stderr.contains("`pressurectl reload` applies it"), r.stderr)
        let expected = """
            [pressured calibration panel]
            MatchName = pressured calibration panel
            MatchVendor = 0x1d6b
            MatchProduct = 0x0a02
            PressureFloor = 25
            PressureAverage = 160
            PressureTop = 950

            """
        XCTAssertTrue(r.stdout.hasSuffix(expected), r.stdout)
        let written = try String(contentsOf: conf, encoding: .utf8)
        XCTAssertEqual(written, r.stdout, "the file holds exactly the section printed")
        // maximumPossibleForce = (950 - 25) / (160 - 25)
        let replay = try Executables.run("pressurectl", ["replay", "--config", conf.path, capture.path])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertTrue(replay.stdout.contains(#""maximumPossibleForce":6.8519"#), replay.stdout)
        let touches = try Executables.run("pressurectl", ["replay", "--touches", "--config", conf.path, capture.path])
        XCTAssertTrue(touches.stdout.contains(#""force":1.0,"#), "a tap's peak reads force 1.0: \(touches.stdout.prefix(600))")
    }

    /// Appending keeps what the file had, and a file that would no longer parse is left alone.
    func testAppendingKeepsTheFileAndNeverWritesABrokenOne() throws {
        let dir = try temporaryFolder(self)
        let capture = try calibrationCapture(in: dir)
        let conf = dir.appendingPathComponent("pressured.conf")
        try "[pressured]\nSensitivity = firm".write(to: conf, atomically: true, encoding: .utf8)
        let args = ["calibrate", "--from-capture", capture.path, "--taps-until", "5.5", "--yes", "--write", conf.path]
        XCTAssertEqual(try Executables.run("pressurectl", args).status, 0)
        let text = try String(contentsOf: conf, encoding: .utf8)
        XCTAssertTrue(text.hasPrefix("[pressured]\nSensitivity = firm\n\n# pressurectl calibrate: 5 taps"), text)
        let replay = try Executables.run("pressurectl", ["replay", "--config", conf.path, capture.path])
        XCTAssertEqual(replay.status, 0, replay.stderr)

        try "[pressured]\nSensitivity = squishy\n".write(to: conf, atomically: true, encoding: .utf8)
        let refused = try Executables.run("pressurectl", args)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("not written: with the new section the file would not parse"), refused.stderr)
        XCTAssertTrue(refused.stderr.contains("pressured.conf:2:"), refused.stderr)
        XCTAssertEqual(try String(contentsOf: conf, encoding: .utf8), "[pressured]\nSensitivity = squishy\n")
    }

    func testWithoutYesNothingIsWrittenAndAnUnwritablePathSaysWhatToDo() throws {
        let dir = try temporaryFolder(self)
        let capture = try calibrationCapture(in: dir)
        let conf = dir.appendingPathComponent("x.conf")
        let r = try Executables.run("pressurectl", ["calibrate", "--from-capture", capture.path, "--taps-until", "5.5", "--write", conf.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("PressureAverage = 160"), r.stdout)
        XCTAssertTrue(r.stderr.contains("not written; give --yes to append it to \(conf.path)"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: conf.path))
        let bad = try Executables.run("pressurectl", [
            "calibrate", "--from-capture", capture.path, "--taps-until", "5.5", "--yes", "--write", "/nonexistent/dir/p.conf",
        ])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("create the folder first, or give --write FILE elsewhere"), bad.stderr)
    }

    func testMeasurementsThatMakeNoCalibrationAreRefusedWithWhatToDo() throws {
        // peek-pop's eight ordinary taps, its firm press and its peek all taken as taps (the first 1.3 s):
        // the one "press" after them, its light touch, is lighter.
        let r = try Executables.run("pressurectl", ["calibrate", "--from-capture", "Tests/Fixtures/peek-pop.evemu", "--taps-until", "1.3"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stdout, "")
        XCTAssertTrue(r.stderr.contains("press harder in the second phase"), r.stderr)
        let none = try Executables.run("pressurectl", ["calibrate", "--from-capture", "Tests/Fixtures/peek-pop.evemu", "--taps-until", "100"])
        XCTAssertEqual(none.status, 1)
        XCTAssertTrue(none.stderr.contains("no firm presses were measured"), none.stderr)
        let flat = try Executables.run("pressurectl", ["calibrate", "--from-capture", "Tests/Fixtures/no-pressure.evemu", "--taps-until", "1"])
        XCTAssertEqual(flat.status, 1)
        XCTAssertTrue(flat.stderr.contains("reports no pressure"), flat.stderr)
    }

    /// The FlatFrog panel from ../shared/captures: its first contact as the tap, the rest as presses.
    func testAFlatFrogCaptureCalibratesAndReplays() throws {
        let capture = try flatFrogCapture()
        let dir = try temporaryFolder(self)
        let conf = dir.appendingPathComponent("flatfrog.conf")
        let r = try Executables.run("pressurectl", ["calibrate", "--from-capture", capture, "--taps-until", "4", "--yes", "--write", conf.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("MatchVendor = 0x25b5\nMatchProduct = 0x0002\nPressureFloor = 19\nPressureAverage = 484\nPressureTop = 879\n"), r.stdout)
        XCTAssertTrue(r.stderr.contains("warning: only 1 tap measured"), r.stderr)
        let replay = try Executables.run("pressurectl", ["replay", "--config", conf.path, capture])
        XCTAssertEqual(replay.status, 0, replay.stderr)
        XCTAssertTrue(replay.stdout.contains(#""maximumPossibleForce":1.8495"#), String(replay.stdout.prefix(300)))
        // The section works on the recording: no ordinary contact peeks, and the two firm ones (3 and 4,
        // at 859 and 879 against at most 640 for the others) pop; contact 2 is held still: a long press.
        let gestures = try replay.stdout.split(separator: "\n").map { line -> String in
            let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return "\(o["type"] ?? "?")#\(o["contact"] ?? "?")"
        }
        XCTAssertEqual(gestures, ["peek#3", "longPress#2", "pop#3", "peek#4", "pop#4"])
        // Split at 4.5 s the first two contacts are the taps: the panel then has no room to pop, and
        // calibrate says so plainly.
        let tight = try Executables.run("pressurectl", ["calibrate", "--from-capture", capture, "--taps-until", "4.5"])
        XCTAssertEqual(tight.status, 0, tight.stderr)
        XCTAssertTrue(tight.stderr.contains("warning: with this section the panel cannot pop: pressured turns force off for it (no headroom"), tight.stderr)
    }

    func testALiveDeviceThatIsNotThereAndUsageErrors() throws {
        let missing = try Executables.run("pressurectl", ["calibrate", "/dev/input/event999"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("`pressurectl devices` lists the touch devices"), missing.stderr)
        let help = try Executables.run("pressurectl", ["calibrate", "--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.stdout.contains("--taps-until SECONDS"), help.stdout)
        for bad in [["calibrate"], ["calibrate", "--from-capture", "x.evemu"], ["calibrate", "--taps-until", "3", "/dev/input/event0"],
                    ["calibrate", "--from-capture", "x", "--taps-until", "soon"]] {
            let r = try Executables.run("pressurectl", bad)
            XCTAssertEqual(r.status, 2, "\(bad): \(r.stderr)")
        }
    }
}
