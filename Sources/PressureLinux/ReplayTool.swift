import Glibc
import PressureCore

/// `pressurectl replay`: a capture through exactly the daemon's pipeline, JSON lines to stdout.
public enum ReplayTool {
    public static let usage = """
        usage: pressurectl replay [--touches] [--config FILE] [--device N] [--desc FILE]
                                  [--sensitivity light|medium|firm] [--force-touch on|off] [--verbose] CAPTURE
        """

    /// Runs the command; returns the exit status (0 success, 1 bad input, 2 usage).
    public static func main(_ arguments: [String]) -> Int32 {
        do {
            var options = OptionReader(arguments)
            let touches = options.flag("--touches")
            let verbose = options.flag("--verbose")
            let configPath = try options.value("--config")
            let deviceIndex = try options.integer("--device", in: 0...1023)
            let descPath = try options.value("--desc")
            let sensitivity = try options.value("--sensitivity")
            let forceTouch = try options.value("--force-touch")
            let files = try options.finish()
            guard files.count == 1, let path = files.first else {
                throw OptionReader.UsageError("give exactly one capture file")
            }
            var settings = GestureSettings()
            var configuration: Configuration? = nil
            if let c = configPath {
                let loaded = try ConfigurationLoader.load(paths: [c])
                configuration = loaded
                settings = loaded.settings
            }
            try SettingsOverride.apply(sensitivity: sensitivity, forceTouch: forceTouch, to: &settings)
            if verbose { Log.threshold = .debug }
            let capture = try CaptureLoader.load(path: path, descriptionPath: descPath, deviceIndex: deviceIndex)
            let device: TouchDevice
            do { device = try TouchDevice(capture.device) } catch {
                throw CaptureLoadError.capture(CaptureError(file: path, line: 0, reason: .noTouchDevice))
            }
            let calibration = try DeviceCalibration.resolve(device: device, configuration: configuration)
            var pipeline = TouchPipeline(
                device: device, deviceID: 1, calibration: calibration?.calibration, settings: settings,
                reportsTouches: touches)
            pipeline.recordsTransitions = verbose
            pipeline.geometry = (configuration ?? Configuration()).screen(for: device).geometry
            if verbose {
                Log.debug("device \"\(device.description.name)\": \(device.kind.rawValue), force \(pipeline.forceCapability.rawValue), peek at raw \(pipeline.thresholds.peekRaw), pop at raw \(pipeline.thresholds.popRaw)")
            }
            var out = BufferedOutput(fd: 1)
            var writeError: SystemError? = nil
            CaptureReplay.run(capture.events, through: &pipeline) { outputs, transitions in
                for t in transitions {
                    Log.debug("contact \(t.contact): \(t.from) → \(t.input) → \(t.to)\(t.impossible ? " (impossible)" : "")")
                }
                for e in outputs { WireFormat.append(e, to: &out.buffer) }
                if writeError == nil {
                    do throws(SystemError) { try out.flushIfFull() } catch { writeError = error }
                }
            }
            if let e = writeError { throw e }
            try out.flush()
            let d = pipeline.tracker.diagnostics
            if d != TrackerDiagnostics() {
                Log.notice("\(path): coped with odd input: \(d.droppedReports) SYN_DROPPED, \(d.eventsForUnknownSlots) events for undeclared slots, \(d.trackingIDsReplacedWithoutLift) tracking ids replaced without lift, \(d.valuesClamped) values clamped, \(d.contactsBeyondCapacity) contacts beyond capacity")
            }
            return 0
        } catch let e as OptionReader.UsageError {
            Log.error("pressurectl replay: \(e)")
            Log.plain(usage)
            return 2
        } catch {
            Log.error("pressurectl replay: \(error)")
            return 1
        }
    }
}

/// Command-line overrides of the configured gesture settings.
public enum SettingsOverride {
    public static func apply(sensitivity: String?, forceTouch: String?, to settings: inout GestureSettings)
        throws(OptionReader.UsageError)
    {
        if let s = sensitivity {
            guard let v = Sensitivity(rawValue: s) else {
                throw OptionReader.UsageError("--sensitivity takes light, medium or firm, not '\(s)'")
            }
            settings.sensitivity = v
        }
        if let f = forceTouch {
            switch f {
            case "on": settings.forceTouchEnabled = true
            case "off": settings.forceTouchEnabled = false
            default: throw OptionReader.UsageError("--force-touch takes on or off, not '\(f)'")
            }
        }
    }
}
