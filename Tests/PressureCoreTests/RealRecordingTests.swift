import DeviceTestSupport
import Foundation
@testable import PressureCapture
@testable import PressureCore
import TestSupport
import XCTest

/// The real recordings themselves, as regression tests: each shared recording with a pressure axis,
/// replayed in its own order on a fresh device with no configuration, gives exactly the gestures and the
/// force at its end that `Tests/RealPanels/recordings.tsv` records (`PRESSURED_REGENERATE_GOLDENS=1`
/// rewrites it; read the diff). Short recordings end before the device has learned: that is what a
/// person who plugs a panel in and touches it a few times sees, and none of it may be a peek.
final class RealRecordingTests: XCTestCase {
    static let expected = FixtureFiles.repoRoot.appendingPathComponent("Tests/RealPanels/recordings.tsv")

    /// Every recording the readers take that has a device with pressure: (file, description, device).
    func recordings() throws -> [(String, URL?, Int)] {
        let dir = FixtureFiles.sharedCaptures
        guard FileManager.default.fileExists(atPath: dir.path) else { throw XCTSkip("no shared captures") }
        var out: [(String, URL?, Int)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() {
            var desc: URL? = nil
            if name.hasSuffix(".events") || name.hasSuffix(".event") {
                let stem = name.replacingOccurrences(of: ".events", with: "").replacingOccurrences(of: ".event", with: "")
                let candidates = [stem + ".desc", stem + ".prop", stem.split(separator: ".").first.map { $0 + ".desc" } ?? ""]
                desc = candidates.map { dir.appendingPathComponent($0) }.first { FileManager.default.fileExists(atPath: $0.path) }
            } else if name.hasPrefix("cros-link") && name.hasSuffix(".evtest.txt") {
                desc = dir.appendingPathComponent("cros-link-atmel-touchpad.desc")
            } else if !(name.hasSuffix(".evemu") || name.hasSuffix(".evtest.txt") || name.hasSuffix(".getevent.txt")) {
                continue
            }
            for index in 0..<(name.hasPrefix("lkml-elants") ? 2 : 1) {
                guard let c = try? FixtureFiles.capture(dir.appendingPathComponent(name), description: desc, deviceIndex: index),
                      let d = try? TouchDevice(c.device), d.hasPressure
                else { continue }
                out.append((name, desc, index))
            }
        }
        return out
    }

    /// One line: the recording, its contacts, its gestures by kind, how often apps heard the device anew,
    /// and its force at the end.
    func summary(_ name: String, _ desc: URL?, _ index: Int) throws -> String {
        let capture = try FixtureFiles.capture(FixtureFiles.sharedCaptures.appendingPathComponent(name), description: desc, deviceIndex: index)
        var pipeline = try FixtureFiles.productPipeline(capture, touches: true)
        var counts: [String: Int] = [:]
        var changes = 0
        var check = InvariantChecker(name: name)
        CaptureReplay.run(capture.events, through: &pipeline, deliver: { out, _ in
            for e in out {
                check.see(e)
                switch e.kind {
                case .touch(.began): counts["contacts", default: 0] += 1
                case .touch: break
                case .gesture(let g): counts[g.rawValue, default: 0] += 1
                }
            }
        }, announce: { _ in changes += 1 })
        check.finish()
        let force = pipeline.forceUnavailableReason?.code ?? "available, max \(DecimalText.fixed(pipeline.maximumPossibleForce, 2))"
        let kinds = ["contacts", "peek", "pop", "dismiss", "quickActions", "longPress"]
        return ([name, String(index)] + kinds.map { "\($0) \(counts[$0, default: 0])" } + ["changes \(changes)", force])
            .joined(separator: "\t")
    }

    func testEachRecordingFromAFreshDeviceGivesWhatItGaveBefore() throws {
        let got = try recordings().map { try summary($0.0, $0.1, $0.2) }
        XCTAssertGreaterThanOrEqual(got.count, 25)
        let header = "# recording\tdevice\tcontacts and gestures from a fresh device\t\t\t\t\t\tdevice changed\tforce at the end"
        if ProcessInfo.processInfo.environment["PRESSURED_REGENERATE_GOLDENS"] == "1" {
            try ([header] + got).joined(separator: "\n").appending("\n").write(to: Self.expected, atomically: true, encoding: .utf8)
            return
        }
        let expected = Array(UnifiedDiff.lines(of: try String(contentsOf: Self.expected, encoding: .utf8)).dropFirst())
        // Orphans: a row whose recording the readers no longer take (or that is gone), a recording with no row.
        func key(_ row: String) -> String { row.split(separator: "\t").prefix(2).joined(separator: " device ") }
        let rows = Set(expected.map(key)), replayed = Set(got.map(key))
        for orphan in rows.subtracting(replayed).sorted() {
            XCTFail("recordings.tsv has a row for \(orphan), which is not among the shared recordings with pressure")
        }
        for missing in replayed.subtracting(rows).sorted() {
            XCTFail("\(missing) has no row in recordings.tsv: regenerate the file and read the new row")
        }
        assertSameLines(got, expected, expectedName: "Tests/RealPanels/recordings.tsv", gotName: "the recordings replayed now",
                        "a recording's gestures changed: regenerate the file if that is meant, and say why")
    }

    /// The ASUS TF201 (issue 27, item 7) sends its contact size as pressure, equal to its touch major on
    /// every frame: replayed as recorded from a fresh device, its first eight ordinary contacts make it
    /// `pressure-is-size` (it used to learn an average from them and give force to the other 14), no
    /// contact gets force, and apps hear no `available`; a configured average still gives force.
    func testTheTF201SaysItsPressureIsItsSize() throws {
        let name = "monkeyhelper-tablet-AngryBirdsMultipleLevels.getevent.txt"
        let url = FixtureFiles.sharedCaptures.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { throw XCTSkip("no shared captures at \(url.path)") }
        let capture = try FixtureFiles.capture(url)
        var pipeline = try FixtureFiles.productPipeline(capture, touches: true)
        var contacts = 0, withForce = 0, announced = 0
        CaptureReplay.run(capture.events, through: &pipeline, deliver: { out, _ in
            for e in out {
                if e.kind == .touch(.began) { contacts += 1 }
                if e.force > 0 || e.maximumPossibleForce > 0 { withForce += 1 }
            }
        }, announce: { _ in announced += 1 })
        XCTAssertEqual(contacts, 22)
        XCTAssertEqual(withForce, 0)
        XCTAssertEqual(announced, 0)
        XCTAssertEqual(pipeline.forceUnavailableReason, .pressureIsSize)
        let info = DeviceInfo(id: 1, node: "replay:\(capture.source)", pipeline: pipeline)
        XCTAssertTrue(ServerMessage.device(change: .changed, info).line.contains(#""forceUnavailable":"pressure-is-size""#))

        let device = try TouchDevice(capture.device)
        let section = "[tf201]\nMatchName=getevent log monkeyhelper-tablet-*\nPressureAverage=64\n"
        let configured = try Configuration.parse(section, file: "c")
            .calibration(for: device.description, pressureAxis: try XCTUnwrap(device.pressureAxis))
        var calibrated = TouchPipeline(
            device: device, deviceID: 1, force: .resolve(configured, settings: GestureSettings()), settings: GestureSettings())
        CaptureReplay.run(capture.events, through: &calibrated) { _, _ in }
        XCTAssertEqual(calibrated.forceCapability, .available, "a configured PressureAverage still wins")
    }

    /// What the product promises first: on recordings of ordinary use, a fresh device peeks on almost
    /// nothing (the touchscreens here have 140 contacts; before the real-panel work 117 of them peeked).
    func testOrdinaryUseOfRealTouchscreensBarelyPeeks() throws {
        var contacts = 0, peeks = 0
        for (name, desc, index) in try recordings() {
            let capture = try FixtureFiles.capture(FixtureFiles.sharedCaptures.appendingPathComponent(name), description: desc, deviceIndex: index)
            guard try TouchDevice(capture.device).kind == .touchscreen else { continue }
            let lines = try FixtureFiles.replayLines(capture, touches: true)
            contacts += lines.filter { $0.contains(#""phase":"began""#) }.count
            peeks += lines.filter { $0.hasPrefix(#"{"type":"peek""#) }.count
        }
        XCTAssertEqual(contacts, 140)
        XCTAssertLessThanOrEqual(peeks, 7, "at most 5% of 140")
    }
}
