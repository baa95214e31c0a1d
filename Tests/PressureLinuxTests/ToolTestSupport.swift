import Foundation
@testable import PressureCapture
@testable import PressureCore
import TestSupport
import XCTest

/// A fresh folder under the system's temporary directory, removed when the test ends.
func temporaryFolder(_ test: XCTestCase) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pressured-tools-\(UUID().uuidString.prefix(8))")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
    return dir
}

/// The shared FlatFrog 3200 capture, or a skip where ../shared/captures is absent.
func flatFrogCapture() throws -> String {
    let path = Executables.repoRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/captures/hiddev-flatfrog_25b5_0002_0.evemu").path
    guard FileManager.default.fileExists(atPath: path) else { throw XCTSkip("no shared captures") }
    return path
}

/// A capture of someone calibrating a 0..1023 touchscreen, at 100 Hz: five ordinary taps in the first
/// five seconds (peaks 140…180), then three firm presses (peaks 800…950). Written with the evemu writer
/// the round-trip tests check.
func calibrationCapture(in dir: URL) throws -> URL {
    let axes: [UInt16: AbsInfo] = [
        AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
        AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
        AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
        AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
        AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 1023),
    ]
    let device = DeviceDescription(
        name: "pressured calibration panel", identity: DeviceIdentity(bus: 3, vendor: 0x1d6b, product: 0x0a02),
        properties: [InputProperty.direct], codes: [EventType.abs: Set(axes.keys)], absInfo: axes)
    var events: [InputEvent] = []
    var t: Int64 = 0
    func frame(_ values: [(UInt16, Int32)]) {
        for (code, value) in values { events.append(InputEvent(time: Timestamp(microseconds: t), type: EventType.abs, code: code, value: value)) }
        events.append(InputEvent(time: Timestamp(microseconds: t), type: EventType.syn, code: SynCode.report, value: 0))
        t += 10_000
    }
    var id: Int32 = 1
    func contact(at start: Int64, rising: [Int32]) {
        t = start
        frame([(AbsCode.mtTrackingID, id), (AbsCode.mtPositionX, 2000), (AbsCode.mtPositionY, 2000), (AbsCode.mtPressure, rising[0])])
        for p in rising.dropFirst() { frame([(AbsCode.mtPressure, p)]) }
        for p in rising.reversed().dropFirst() { frame([(AbsCode.mtPressure, p)]) }
        frame([(AbsCode.mtTrackingID, -1)])
        id += 1
    }
    for (i, peak) in [150, 140, 170, 160, 180].enumerated() {
        contact(at: Int64(i) * 1_000_000, rising: [25, 80, Int32(peak)])
    }
    for (i, peak) in [800, 950, 900].enumerated() {
        contact(at: 6_000_000 + Int64(i) * 1_000_000, rising: [30, 200, 500, Int32(peak)])
    }
    let url = dir.appendingPathComponent("calibration.evemu")
    let bytes = CaptureWriter.encode(Capture(source: "calibration", device: device, events: events), format: .evemu)
    try Data(bytes).write(to: url)
    return url
}
