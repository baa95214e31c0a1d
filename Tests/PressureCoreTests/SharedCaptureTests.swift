import Foundation
import XCTest
@testable import PressureCore

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

/// The promises of the wire format, checked event by event.
struct InvariantChecker {
    let name: String
    var open: Set<UInt64> = []
    var ended: Set<UInt64> = []
    var peeking: Set<UInt64> = []
    var popped: Set<UInt64> = []
    var peeks = 0
    var lastTime = Int64.min

    init(name: String) { self.name = name }

    mutating func see(_ e: PressureEvent) {
        XCTAssertGreaterThanOrEqual(e.force, 0, name)
        XCTAssertLessThanOrEqual(e.force, e.maximumPossibleForce + 1e-9, name)
        if let p = e.progress { XCTAssertTrue((0...1).contains(p), name) }
        XCTAssertFalse(ended.contains(e.contact), "\(name): event after contact \(e.contact) ended")
        switch e.kind {
        case .touch(.began):
            XCTAssertTrue(open.insert(e.contact).inserted, "\(name): contact \(e.contact) began twice")
        case .touch(.moved):
            XCTAssertTrue(open.contains(e.contact), name)
        case .touch(.ended), .touch(.cancelled):
            XCTAssertNotNil(open.remove(e.contact), "\(name): end without began")
            XCTAssertFalse(peeking.contains(e.contact), "\(name): contact \(e.contact) ended with an open peek")
            ended.insert(e.contact)
        case .gesture(.peek):
            XCTAssertTrue(open.contains(e.contact), name)
            XCTAssertTrue(peeking.insert(e.contact).inserted, "\(name): second peek")
            peeks += 1
        case .gesture(.pop):
            XCTAssertNotNil(peeking.remove(e.contact), "\(name): pop without peek")
            XCTAssertTrue(popped.insert(e.contact).inserted, "\(name): second pop")
        case .gesture(.dismiss):
            XCTAssertNotNil(peeking.remove(e.contact), "\(name): dismiss without open peek")
        case .gesture(.quickActions):
            XCTAssertTrue(peeking.contains(e.contact), "\(name): quick actions without peek")
        case .gesture(.longPress):
            XCTAssertTrue(open.contains(e.contact), name)
            XCTAssertFalse(peeking.contains(e.contact), name)
        }
    }

    func finish() {
        XCTAssertTrue(open.isEmpty, "\(name): contacts never ended: \(open)")
        XCTAssertTrue(peeking.isEmpty, "\(name): peeks never ended: \(peeking)")
    }
}
