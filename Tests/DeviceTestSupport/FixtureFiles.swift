import Foundation
import PressureCapture
import PressureCore

/// Locates the project's fixtures and the shared captures (`../shared/captures`, beside the checkout).
public enum FixtureFiles {
    public static let repoRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let fixtures = repoRoot.appendingPathComponent("Tests/Fixtures")
    public static let goldens = repoRoot.appendingPathComponent("Tests/Golden")
    public static let sharedCaptures = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/captures")

    public static func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// Reads a capture the way `pressurectl replay` does (any format, optional description and device).
    public static func capture(_ url: URL, description: URL? = nil, deviceIndex: Int? = nil) throws -> Capture {
        let data = try bytes(url)
        let desc = try description.map { d in
            try bytes(d).withUnsafeBufferPointer { try EvemuReader.readDescription($0, file: d.lastPathComponent) }
        }
        return try CaptureReader.read(data, file: url.lastPathComponent, description: desc, deviceIndex: deviceIndex)
    }

    /// Replays a capture as `pressurectl replay` does with no configuration (the device learns its average
    /// touch afresh) and returns the JSON lines, `device changed` ones included; `node` names the device in
    /// those as the tool does (`replay:PATH`).
    public static func replayLines(
        _ capture: Capture, touches: Bool, settings: GestureSettings = GestureSettings(), node: String? = nil
    ) throws -> [String] {
        var pipeline = try productPipeline(capture, settings: settings, touches: touches)
        var lines: [String] = []
        let name = node ?? "replay:Tests/Fixtures/\(capture.source)"
        CaptureReplay.run(capture.events, through: &pipeline, deliver: { out, _ in lines += out.map(WireFormat.line) },
                          announce: { p in
            var info = DeviceInfo(id: p.deviceID, node: name, pipeline: p)
            info.assumed = capture.assumptions
            lines.append(ServerMessage.device(change: .changed, info).line)
        })
        return lines
    }

    /// The pipeline the daemon builds for the capture's device with no configuration: the average touch
    /// learned from nothing.
    public static func productPipeline(_ capture: Capture, settings: GestureSettings = GestureSettings(), touches: Bool)
        throws -> TouchPipeline
    {
        try DeviceSetup(device: try TouchDevice(capture.device), configuration: Configuration(), settings: settings)
            .checked().pipeline(deviceID: 1, reportsTouches: touches)
    }
}
