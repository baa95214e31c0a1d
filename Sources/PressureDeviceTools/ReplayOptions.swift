import PressureCapture
import PressureCommandLine
import PressureCore
import PressureLinux

/// The options every command that runs a capture through the pipeline shares (`replay`, `plot`,
/// `--force-touch on|off`, and which average touch force is measured against (`--fresh`,
/// `--learn-first`, `--learned FILE`: ``AverageTouchChoice``).
public struct ReplayOptions: Sendable {
    public var configPath: String?
    public var deviceIndex: Int?
    public var descriptionPath: String?
    public var sensitivity: String?
    public var forceTouch: String?
    /// A learned-average file the device starts from (else it learns afresh, as a new device would).
    public var learnedPath: String?
    /// `--fresh` and `--learn-first` as given; ``averageTouch(default:)`` says what they come to.
    public var fresh = false
    public var learnFirst = false

    public static let usage = """
          --config FILE         configuration for calibration and settings (docs/configuration.md)
          --device N            which device of a file that holds several (libinput record devices,
                                evtest sessions, getevent nodes; from 0; default the first touch device)
          --desc FILE           the device description (evemu) for a header-less .events file or log
          --sensitivity S       light, medium or firm (overrides the configuration)
          --force-touch on|off  overrides the configuration
          --learned FILE        start from this learned average touch (pressurectl replay --save-learned,
                                or the daemon's /var/lib/pressured/learned/…)
          --learn-first         learn the average touch from the capture's own ordinary contacts first,
                                then measure every contact against it
          --fresh               learn it as the capture plays, as a freshly started daemon would: force
                                is 0 until the device has learned
        """

    /// Takes the shared options out of `options`.
    public static func read(_ options: inout OptionReader) throws(OptionReader.UsageError) -> ReplayOptions {
        ReplayOptions(
            configPath: try options.value("--config"),
            deviceIndex: try options.integer("--device", in: 0...1023),
            descriptionPath: try options.value("--desc"),
            sensitivity: try options.value("--sensitivity"),
            forceTouch: try options.value("--force-touch"),
            learnedPath: try options.value("--learned"),
            fresh: options.flag("--fresh"),
            learnFirst: options.flag("--learn-first"))
    }

    /// The average touch asked for, else the command's `default`; more than one is a usage error.
    public func averageTouch(default choice: AverageTouchChoice) throws(OptionReader.UsageError)
        -> AverageTouchChoice
    {
        let given = [fresh ? "--fresh" : nil, learnFirst ? "--learn-first" : nil, learnedPath.map { _ in "--learned" }]
            .compactMap { $0 }
        guard given.count <= 1 else { throw .init("give only one of \(given.joined(separator: " and "))") }
        if fresh { return .fresh }
        if learnFirst { return .learnFirst }
        if let file = learnedPath { return .file(file) }
        return choice
    }

    /// Loads the configuration and the capture and builds the pipeline exactly as `pressured` would for
    /// that device, so what the caller gets out of it is what apps would. The capture is opened to stream,
    /// with `firstPass` (``CaptureStream/FirstPass``). The device starts from `learner` where one is
    /// given (what ``CaptureLearning`` learned), else from `--learned FILE`, else afresh.
    public func load(
        capture path: String, reportsTouches: Bool, firstPass: CaptureStream.FirstPass = .wholeFile,
        learner given: AverageTouchLearner? = nil
    ) throws(ReplaySetupError) -> ReplaySetup {
        var settings = GestureSettings()
        var configuration: Configuration? = nil
        if let c = configPath {
            do { configuration = try ConfigurationLoader.load(paths: [c]) } catch { throw .configuration(error) }
            settings = configuration?.settings ?? settings
        }
        do {
            try SettingsOverride.apply(sensitivity: sensitivity, forceTouch: forceTouch, to: &settings)
        } catch { throw .usage(error) }
        let capture: CaptureStream
        do {
            capture = try CaptureLoader.open(
                path: path, descriptionPath: descriptionPath, deviceIndex: deviceIndex, firstPass: firstPass)
        } catch { throw .capture(error) }
        let device: TouchDevice
        do { device = try TouchDevice(capture.device) } catch {
            throw .capture(.capture(CaptureError(file: path, line: 0, reason: .noTouchDevice)))
        }
        // As the daemon sets a device up (no udev: a capture has no node), but a configuration it would
        // fall back from is an error here: what the tool shows is what the configuration does.
        let setup: DeviceSetup
        do {
            setup = try DeviceSetup(device: device, configuration: configuration ?? Configuration(), settings: settings)
                .checked()
        } catch { throw .configuration(.configuration(error)) }
        var learned = given
        if learned == nil, let file = learnedPath {
            do { learned = try LearnedStateStore.read(path: file, for: device) } catch { throw .learned(error) }
        }
        return ReplaySetup(
            capture: capture, device: device, calibration: setup.calibration,
            pipeline: setup.pipeline(deviceID: 1, learned: learned, reportsTouches: reportsTouches))
    }
}
