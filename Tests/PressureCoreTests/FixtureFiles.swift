import Foundation
@testable import PressureCore

/// Locates the project's fixtures and the shared captures (`../shared/captures`, beside the checkout).
enum FixtureFiles {
    static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = repoRoot.appendingPathComponent("Tests/Fixtures")
    static let goldens = repoRoot.appendingPathComponent("Tests/Golden")
    static let sharedCaptures = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")

    static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// Reads a capture the way `pressurectl replay` does (any format, optional description and device).
    static func capture(_ url: URL, description: URL? = nil, deviceIndex: Int? = nil) throws -> Capture {
        let data = try bytes(url)
        let desc = try description.map { d in
            try bytes(d).withUnsafeBufferPointer { try EvemuReader.readDescription($0, file: d.lastPathComponent) }
        }
        return try CaptureReader.read(data, file: url.lastPathComponent, description: desc, deviceIndex: deviceIndex)
    }

    /// Replays a capture on the uncalibrated defaults and returns the JSON lines.
    static func replayLines(_ capture: Capture, touches: Bool, settings: GestureSettings = GestureSettings())
        throws -> [String]
    {
        let device = try TouchDevice(capture.device)
        let cal = device.hasPressure ? device.pressureAxis.map { ForceCalibration.uncalibrated(axis: $0) } : nil
        var pipeline = TouchPipeline(device: device, deviceID: 1, calibration: cal, settings: settings,
                                     reportsTouches: touches)
        var lines: [String] = []
        CaptureReplay.run(capture.events, through: &pipeline) { out, _ in lines += out.map(WireFormat.line) }
        return lines
    }
}
