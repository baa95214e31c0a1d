/// How a touch device is set up for serving, computed in one place: from its description, the
/// configuration, the settings and udev's properties, the calibration its force starts from, its
/// tracker's settings and its screen, and what fell back on the way. The daemon serves devices with it,
/// and `pressurectl replay`, `plot` and `devices` say with it what the daemon would serve, so the two
/// cannot drift apart.
///
/// A part the configuration gets wrong never stops the setup: the part falls back and a ``Notice`` says
/// so. What to make of a notice is the caller's policy: the daemon logs it and serves the device
/// (``notices``); a tool that shows what a configuration does refuses it (``checked()``).
///
/// | part | from | where the configuration gets it wrong |
/// |---|---|---|
/// | calibration | the defaults, udev's `PRESSURED_PRESSURE_*`, the device sections | the uncalibrated defaults (``Notice/calibration(_:)``) |
/// | touch thresholds | the device sections (single-touch panels without `BTN_TOUCH`) | the defaults; the palm size stays (``Notice/touchThresholds(_:)``) |
/// | palm size | `[pressured]`, the device sections | cannot be wrong once parsed |
/// | screen | the device sections, udev's `LIBINPUT_CALIBRATION_MATRIX` | cannot be wrong once parsed |
/// | average touch | the calibration, else what was learned (``force(learned:)``) | |
public struct DeviceSetup: Hashable, Sendable {
    /// A part of the setup that fell back because the configuration got it wrong.
    public enum Notice: Hashable, Sendable, CustomStringConvertible {
        /// The merged calibration is impossible: the device uses ``ForceCalibration/uncalibrated(axis:)``.
        case calibration(ConfigurationError)
        /// The merged touch thresholds are impossible: the device uses the defaults.
        case touchThresholds(ConfigurationError)

        /// The configuration's mistake.
        public var error: ConfigurationError {
            switch self {
            case .calibration(let e), .touchThresholds(let e): return e
            }
        }

        /// The error and what the device uses instead (the daemon's log line, after the node).
        public var description: String {
            switch self {
            case .calibration(let e): return "\(e); using the uncalibrated defaults"
            case .touchThresholds(let e): return "\(e); using the default touch thresholds"
            }
        }
    }

    public let device: TouchDevice
    public let settings: GestureSettings
    /// Where its force comes from; nil without a pressure axis.
    public let calibration: ResolvedCalibration?
    public let tracking: TrackerSettings
    public let screen: ResolvedScreen
    /// What fell back, in the order above.
    public let notices: [Notice]

    /// The setup of `device` under `configuration` and `settings` (the configuration's, or what the
    /// daemon was told since), with `udev`'s properties of its node (none for a capture).
    public init(
        device: TouchDevice, configuration: Configuration, settings: GestureSettings,
        udev: UdevDeviceProperties = UdevDeviceProperties()
    ) {
        self.device = device
        self.settings = settings
        var notices: [Notice] = []
        if device.hasPressure, let axis = device.pressureAxis {
            do {
                calibration = try configuration.calibration(for: device.description, pressureAxis: axis, udev: udev)
            } catch {
                notices.append(.calibration(error))
                calibration = ResolvedCalibration(
                    calibration: ForceCalibration.uncalibrated(axis: axis), sources: CalibrationSources(),
                    matchedSections: [])
            }
        } else {
            calibration = nil
        }
        do {
            tracking = try configuration.tracking(for: device).settings
        } catch {
            notices.append(.touchThresholds(error))
            tracking = TrackerSettings(palmSize: configuration.palmSize(for: device.description).size)
        }
        screen = configuration.screen(for: device, udevMatrix: udev.calibrationMatrix)
        self.notices = notices
    }

    /// The same setup, or the first part the configuration got wrong as an error: for a tool that shows
    /// what a configuration does, where falling back would hide the mistake.
    public func checked() throws(ConfigurationError) -> DeviceSetup {
        if let first = notices.first { throw first.error }
        return self
    }

    /// How its force starts: configured, learned (carrying on from `learned`, a saved learner) or the
    /// prior (``ForceModel/Setup/resolve(_:settings:learned:)``).
    public func force(learned: AverageTouchLearner?) -> ForceModel.Setup {
        .resolve(calibration, settings: settings, learned: learned)
    }

    /// The pipeline the device is served through, its force starting from `learned`.
    public func pipeline(deviceID: Int, learned: AverageTouchLearner? = nil, reportsTouches: Bool = false)
        -> TouchPipeline
    {
        var pipeline = TouchPipeline(
            device: device, deviceID: deviceID, force: force(learned: learned), settings: settings,
            reportsTouches: reportsTouches, tracking: tracking)
        pipeline.setScreen(screen)
        return pipeline
    }

    /// Whether what a device learns is kept between runs: not for a virtual one (uinput: test rigs,
    /// remote desktops), which learns in memory only.
    public static func persistsLearning(_ description: DeviceDescription) -> Bool {
        description.identity.bus != BusType.virtual
    }
}
