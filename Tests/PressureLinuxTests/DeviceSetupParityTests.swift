import Foundation
import PressureCapture
@testable import PressureCore
@testable import PressureDeviceTools
@testable import PressureHub
@testable import PressureLinux
import TestSupport
import XCTest

/// What `pressurectl replay` and `pressurectl devices` say of a device is what the daemon would serve:
/// for every fixture under configurations that touch each part of a setup (settings, calibration, touch
/// thresholds and palm size, screen), with and without a learned average and udev's properties, each
/// tool's pipeline is the one the hub builds for the same device, down to the lines it gives for the
/// capture; and a configuration a tool refuses is one the daemon warns of, with the same error.
final class DeviceSetupParityTests: XCTestCase {
    static let configurations: [String?] = [
        nil,
        "[pressured]\nSensitivity=firm\nLongPressMs=300\n",
        "[pressured]\nLearnAverageTouch=off\nForceTouch=on\n",
        "[all]\nMatchName=*\nPressureFloor=5\nPressureAverage=100\n",
        "[pressured]\nPalmSizeMm=6\n[all]\nMatchName=*\nPressureTouchDown=60\nPressureTouchUp=40\n",
        "[all]\nMatchName=*\nScreenSize=1920x1080\nScreenRotation=90\nCalibrationMatrix=1 0 0.1 0 1 0\n",
        // Impossible: the tools refuse it, the daemon falls back.
        "[all]\nMatchName=*\nPressureFloor=90\nPressureAverage=50\n",
        "[all]\nMatchName=*\nPressureTouchDown=20\n",
    ]

    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("setup-parity-\(UUID())")

    override func setUpWithError() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func fixtures() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(
            at: Executables.repoRoot.appendingPathComponent("Tests/Fixtures"), includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// The configuration file `n` as the tools read it (`--config`) and as the daemon has it loaded.
    func configuration(_ n: Int) throws -> (path: String?, configuration: Configuration) {
        guard let text = Self.configurations[n] else { return (nil, Configuration()) }
        let url = directory.appendingPathComponent("c\(n).conf")
        try Data(text.utf8).write(to: url)
        return (url.path, try Configuration.parse(text, file: url.path))
    }

    /// The pipeline the hub serves the device through, and what it warned of.
    func daemon(
        _ capture: Capture, _ configuration: Configuration, udev: UdevDeviceProperties = UdevDeviceProperties(),
        learned: AverageTouchLearner? = nil
    ) throws -> (pipeline: TouchPipeline, warnings: [String]) {
        var hub = Hub(configuration: configuration)
        _ = try XCTUnwrap(hub.addDevice(
            node: "n", description: capture.device, udev: udev, learned: learned, assumed: capture.assumptions))
        var pipeline = hub.devices[0].pipeline
        pipeline.reportsTouches = true
        let warnings = hub.takeWork().notices.compactMap { if case .warning(let m) = $0 { m } else { nil } }
        return (pipeline, warnings)
    }

    func testReplayBuildsThePipelineTheDaemonServes() throws {
        var compared = 0, refused = 0
        for fixture in try fixtures() {
            let capture = try CaptureLoader.load(path: fixture.path)
            for n in Self.configurations.indices {
                let (path, configuration) = try configuration(n)
                let options = ReplayOptions(configPath: path)
                let what = "\(fixture.lastPathComponent), configuration \(n)"
                let first: ReplaySetup
                do { first = try options.load(capture: fixture.path, reportsTouches: true) } catch {
                    guard case .configuration(.configuration(let e)) = error else { throw error }
                    refused += 1
                    XCTAssertTrue(try daemon(capture, configuration).warnings.contains { $0.contains("\(e)") }, what)
                    continue
                }
                XCTAssertEqual(first.capture.device, capture.device, what)
                let learned = try CaptureLearning.learn(options, capture: fixture.path).learner
                for learner in learned.map({ [nil, $0] }) ?? [nil] {
                    let replay = try options.load(capture: fixture.path, reportsTouches: true, learner: learner)
                    let served = try daemon(capture, configuration, learned: learner)
                    XCTAssertEqual(served.warnings, [], what)
                    assertSame(replay.pipeline, served.pipeline, capture.events, what + (learner == nil ? "" : ", learned"))
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 100)
        XCTAssertGreaterThan(refused, 10)
    }

    func testDevicesShowsTheForceTheDaemonServes() throws {
        var compared = 0
        for fixture in try fixtures() {
            let capture = try CaptureLoader.load(path: fixture.path)
            let device = try TouchDevice(capture.device)
            let key = LearnedDeviceKey(device)
            let learner = try CaptureLearning.learn(ReplayOptions(), capture: fixture.path).learner
            let udevs = device.pressureAxis.map { axis in
                [[:], [UdevDeviceProperties.averageKey: "\(axis.minimum + Int32(axis.span / 3))"],
                 [UdevDeviceProperties.topKey: "x", UdevDeviceProperties.matrixKey: "0 1 0 1 0 0"]]
            } ?? [[:]]
            for n in Self.configurations.indices {
                let configuration = try configuration(n).configuration
                for udev in udevs.map(UdevDeviceProperties.init) {
                    for saved in [nil, learner] {
                        let what = "\(fixture.lastPathComponent), configuration \(n), udev \(udev), saved \(saved != nil)"
                        let state = directory.appendingPathComponent("state-\(UUID())")
                        if let saved, let key {
                            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
                            try Data(LearnedAverageFile.encode(saved, for: key)).write(
                                to: state.appendingPathComponent(key.fileName))
                        }
                        // What the daemon's loop hands the hub from its state directory.
                        let learned = DeviceSetup.persistsLearning(capture.device) ? saved : nil
                        let served = try daemon(capture, configuration, udev: udev, learned: learned)
                        let shown: DevicesTool.Row?
                        do {
                            shown = try DevicesTool.row(
                                node: "n", description: capture.device, udev: udev, configuration: configuration,
                                settings: configuration.settings, store: LearnedStateStore(directory: state.path))
                        } catch {
                            guard case .configuration(let e) = error else { throw error }
                            XCTAssertTrue(served.warnings.contains { $0.contains("\(e)") }, what)
                            continue
                        }
                        let row = try XCTUnwrap(shown, what)
                        XCTAssertEqual(row.force, DeviceForceStatus(device: 0, pipeline: served.pipeline), what)
                        XCTAssertEqual(row.forceCapability, served.pipeline.forceCapability, what)
                        XCTAssertEqual(row.maximumPossibleForce, served.pipeline.maximumPossibleForce, what)
                        XCTAssertEqual(row.calibration?.calibration, base(served.pipeline.force.setup), what)
                        compared += 1
                    }
                }
            }
        }
        XCTAssertGreaterThan(compared, 300)
    }

    /// The calibration a force setup starts from.
    func base(_ setup: ForceModel.Setup) -> ForceCalibration? {
        switch setup {
        case .none: return nil
        case .configured(let c), .prior(let c), .learning(let c, _): return c
        }
    }

    /// The same device, settings, force, thresholds, tracker and screen, and the same lines for the capture.
    func assertSame(
        _ tool: TouchPipeline, _ served: TouchPipeline, _ events: [InputEvent], _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(tool.device, served.device, what, file: file, line: line)
        XCTAssertEqual(tool.settings, served.settings, what, file: file, line: line)
        XCTAssertEqual(tool.force, served.force, what, file: file, line: line)
        XCTAssertEqual(tool.thresholds, served.thresholds, what, file: file, line: line)
        XCTAssertEqual(tool.tracker.settings, served.tracker.settings, what, file: file, line: line)
        XCTAssertEqual(tool.geometry, served.geometry, what, file: file, line: line)
        XCTAssertEqual(lines(tool, events), lines(served, events), what, file: file, line: line)
    }

    func lines(_ start: TouchPipeline, _ events: [InputEvent]) -> [String] {
        var pipeline = start
        var lines: [String] = []
        CaptureReplay.run(
            events, through: &pipeline, deliver: { out, _ in lines += out.map(WireFormat.line) },
            announce: { p in lines.append(ServerMessage.device(change: .changed, DeviceInfo(id: 1, node: "n", pipeline: p)).line) })
        return lines
    }
}
