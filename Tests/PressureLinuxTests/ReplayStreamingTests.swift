import Foundation
@testable import PressureCapture
@testable import PressureCore
@testable import PressureDeviceTools
@testable import PressureLinux
import TestSupport
import XCTest

/// `pressurectl replay` streams its capture: an evemu file is read once, its events checked as they play,
/// and what it prints is held back until the file is known to be good; it prints exactly what reading the
/// whole file first prints (`--verbose` does that), and nothing for a bad file, wherever the bad line is.
final class ReplayStreamingTests: XCTestCase {
    let fixtures = Executables.repoRoot.appendingPathComponent("Tests/Fixtures")

    /// The header of the peek-pop fixture, then one finger held for `frames` frames of 10 ms, moving a unit
    /// a frame: with `--touches`, a line a frame, about 190 bytes each.
    func longPress(frames: Int) throws -> String {
        let peek = try String(contentsOf: fixtures.appendingPathComponent("peek-pop.evemu"), encoding: .utf8)
        var text = peek.split(separator: "\n").filter { !$0.hasPrefix("E:") }.joined(separator: "\n") + "\n"
        func time(_ frame: Int) -> String { String(format: "%d.%06d", 1 + frame / 100, (frame % 100) * 10_000) }
        text += "E: \(time(0)) 0003 002f 0000\nE: \(time(0)) 0003 0039 0001\nE: \(time(0)) 0003 0036 0400\n"
        text += "E: \(time(0)) 0003 003a 0076\n"
        for f in 0..<frames {
            text += "E: \(time(f)) 0003 0035 \(String(format: "%04d", 100 + f % 3000))\nE: \(time(f)) 0000 0000 0000\n"
        }
        return text + "E: \(time(frames)) 0003 0039 -001\nE: \(time(frames)) 0000 0000 0000\n"
    }

    func testOutputBeyondWhatIsHeldBackIsStillAllOrNothing() throws {
        let dir = try temporaryFolder(self)
        let good = dir.appendingPathComponent("long.evemu")
        let text = try longPress(frames: 8000)
        try text.write(to: good, atomically: true, encoding: .utf8)
        let streamed = try Executables.run("pressurectl", ["replay", "--touches", good.path])
        XCTAssertEqual(streamed.status, 0, streamed.stderr)
        XCTAssertGreaterThan(streamed.stdout.utf8.count, ReplayTool.holdLimit)
        let checkedFirst = try Executables.run("pressurectl", ["replay", "--touches", "--verbose", good.path])
        XCTAssertEqual(checkedFirst.status, 0)
        XCTAssertEqual(streamed.stdout, checkedFirst.stdout)

        let bad = dir.appendingPathComponent("bad.evemu")
        try (text + "E: 99.000000 0003 zz 1\n").write(to: bad, atomically: true, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        for touches in [true, false] {
            let r = try Executables.run("pressurectl", ["replay"] + (touches ? ["--touches"] : []) + [bad.path])
            XCTAssertEqual(r.status, 1)
            XCTAssertEqual(r.stdout, "")
            XCTAssertTrue(r.stderr.contains("bad.evemu:\(lines): expected an event"), r.stderr)
        }
    }

    func testAHeaderLineAfterTheEventsCountsAsBefore() throws {
        let dir = try temporaryFolder(self)
        let file = dir.appendingPathComponent("late.evemu")
        let peek = try String(contentsOf: fixtures.appendingPathComponent("peek-pop.evemu"), encoding: .utf8)
        try (peek + "N: renamed at the end\n").write(to: file, atomically: true, encoding: .utf8)
        let r = try Executables.run("pressurectl", ["replay", file.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("renamed at the end"), r.stdout)
        let checkedFirst = try Executables.run("pressurectl", ["replay", "--verbose", file.path])
        XCTAssertEqual(r.stdout, checkedFirst.stdout)
        XCTAssertEqual(r.stderr, "")
    }

    func testAFileThatCannotBeReadSaysWhy() throws {
        let dir = try temporaryFolder(self)
        let r = try Executables.run("pressurectl", ["replay", dir.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("pressurectl replay: \(dir.path): read: Is a directory"), r.stderr)
    }

    /// The file read a byte at a time through `read(2)` gives what it gives read in 64 KiB chunks.
    func testAFileStreamsAtAnyChunkSize() throws {
        for name in ["peek-pop.evemu", "elan-two-devices.yml", "two-sessions.evtest.txt", "two-devices.getevent.txt"] {
            let path = fixtures.appendingPathComponent(name).path
            let whole = try CaptureLoader.load(path: path)
            for chunk in [1, 5, 4096] {
                let stream = try CaptureLoader.open(path: path, chunkSize: chunk)
                XCTAssertEqual(stream.eventCount, whole.events.count)
                let c = try stream.readAll()
                XCTAssertEqual(c.events, whole.events, "\(name), chunk \(chunk)")
                XCTAssertEqual(c.device, whole.device, "\(name), chunk \(chunk)")
            }
        }
    }

    /// A bad line read from its file through `read(2)`, a byte at a time or in 4 KiB chunks, with either
    /// first pass, is reported as reading the file whole reports it: the file and the line, for every format.
    func testABadLineInAFileIsNamedByFileAndLineAtAnyChunkSize() throws {
        let dir = try temporaryFolder(self)
        let broken: [(String, Int, String)] = [
            ("peek-pop.evemu", 30, "E: 1.5 0003 zz 12"),
            ("elan-two-devices.yml", 108, "    - [  0,      0,   3,  zz,      10]"),
            ("two-sessions.evtest.txt", 59, "Event: time 1587922486.180000, type 3 (EV_ABS), code 58 (ABS_MT_PRESSURE), value x"),
            ("two-devices.getevent.txt", 150, "[      81.000000] /dev/input/event2: EV_ABS       ABS_MT_SLOT          zz"),
        ]
        for (name, line, replacement) in broken {
            var lines = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
                .split(separator: "\n", omittingEmptySubsequences: false)
            lines[line - 1] = Substring(replacement)
            let file = dir.appendingPathComponent("bad-" + name)
            try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
            let expected = "\(file.path):\(line): "
            XCTAssertThrowsError(try CaptureLoader.load(path: file.path)) { XCTAssertTrue("\($0)".hasPrefix(expected), "\($0)") }
            for chunk in [1, 4096] {
                for firstPass in [CaptureStream.FirstPass.wholeFile, .header] {
                    XCTAssertThrowsError(try CaptureLoader.open(path: file.path, chunkSize: chunk, firstPass: firstPass).readAll()) {
                        XCTAssertTrue("\($0)".hasPrefix(expected), "\(name), chunk \(chunk), \(firstPass): \($0)")
                    }
                }
            }
        }
    }

    /// `pressured --replay` streams its capture, but checks every line of it before binding its socket:
    /// a bad last line is the error, not the socket that could not have been bound (its folder is missing).
    func testPressuredChecksTheWholeCaptureBeforeBindingItsSocket() throws {
        let dir = try temporaryFolder(self)
        let bad = dir.appendingPathComponent("bad-end.evemu")
        let text = try longPress(frames: 3000)
        try (text + "E: 99.000000 0003 zz 1\n").write(to: bad, atomically: true, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        let socket = dir.appendingPathComponent("missing/s.sock").path
        let r = try Executables.run("pressured", ["--replay", bad.path, "--socket", socket, "--exit-when-done"])
        XCTAssertNotEqual(r.status, 0)
        XCTAssertTrue(r.stderr.contains("bad-end.evemu:\(lines): expected an event"), r.stderr)
        XCTAssertFalse(r.stderr.contains("s.sock"), r.stderr)
        // The same file without its bad line gets as far as the socket.
        let good = dir.appendingPathComponent("good.evemu")
        try text.write(to: good, atomically: true, encoding: .utf8)
        let g = try Executables.run("pressured", ["--replay", good.path, "--socket", socket, "--exit-when-done"])
        XCTAssertNotEqual(g.status, 0)
        XCTAssertTrue(g.stderr.contains("s.sock"), g.stderr)
    }
}
