import DeviceTestSupport
import Foundation
@testable import PressureCapture
@testable import PressureCore
import XCTest

/// Every recording in `../shared/captures` that the reader supports replays without error and keeps the
/// invariants apps rely on. Skips cleanly where the folder is absent.
final class SharedCaptureTests: XCTestCase {
    /// The evemu files there, each with its separate description where it has none of its own.
    func supportedCaptures() throws -> [(URL, URL?)] {
        let dir = FixtureFiles.sharedCaptures
        guard FileManager.default.fileExists(atPath: dir.path) else {
            throw XCTSkip("no shared captures at \(dir.path)")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        let descs = names.filter { $0.hasSuffix(".desc") || $0.hasSuffix(".prop") }
        var result: [(URL, URL?)] = []
        for n in names where n.hasSuffix(".evemu") || n.hasSuffix(".events") || n.hasSuffix(".event") {
            let stem = n.split(separator: ".").first.map(String.init) ?? n
            let desc = n.hasSuffix(".events")
                ? descs.filter { n.hasPrefix(String($0.dropLast(5))) || $0.hasPrefix(stem) }.max { $0.count < $1.count }
                : nil
            result.append((dir.appendingPathComponent(n), desc.map { dir.appendingPathComponent($0) }))
        }
        return result
    }

    func testEverySupportedCaptureReplaysAndKeepsTheInvariants() throws {
        let captures = try supportedCaptures()
        XCTAssertGreaterThanOrEqual(captures.count, 15)
        for (url, desc) in captures {
            let name = url.lastPathComponent
            let capture = try FixtureFiles.capture(url, description: desc)
            XCTAssertFalse(capture.events.isEmpty, name)
            let device = try TouchDevice(capture.device)
            let cal = device.hasPressure ? device.pressureAxis.map { ForceCalibration.uncalibrated(axis: $0) } : nil
            var pipeline = TouchPipeline(device: device, deviceID: 1, calibration: cal,
                                         settings: GestureSettings(), reportsTouches: true)
            var check = InvariantChecker(name: name)
            CaptureReplay.run(capture.events, through: &pipeline) { out, _ in
                for e in out { check.see(e) }
            }
            check.finish()
            // These are recordings of fingers: none may be taken for a palm at the default size. (At its
            // touch major's own resolution the Sharp 04dd:9681's ordinary touches would be 22-77 mm.)
            XCTAssertEqual(pipeline.tracker.diagnostics.palms, 0, "\(name): palms")
        }
    }

    func testEveryFileInTheFolderEitherReadsOrFailsCleanly() throws {
        let dir = FixtureFiles.sharedCaptures
        guard FileManager.default.fileExists(atPath: dir.path) else { throw XCTSkip("no shared captures") }
        for n in try FileManager.default.contentsOfDirectory(atPath: dir.path) {
            let bytes = try FixtureFiles.bytes(dir.appendingPathComponent(n))
            _ = Result { () throws(CaptureError) in try CaptureReader.read(bytes, file: n) }
        }
    }
}
