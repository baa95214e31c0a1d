import Glibc
import PressureCapture
import PressureCommandLine
import PressureCore
import PressureLinux

/// `pressurectl calibrate`: measures a person's ordinary taps and firm presses on a device and proposes
/// its `PressureFloor`, `PressureAverage` and `PressureTop` (``CalibrationSession``), as tslib's
/// `ts_calibrate` and libinput's `measure touchpad-pressure` do for theirs.
public enum CalibrateTool {
    public static let usage = """
        usage: pressurectl calibrate DEVICE [--taps N] [--presses N] [--write FILE] [--yes]
               pressurectl calibrate --from-capture CAPTURE --taps-until SECONDS [--device N] [--desc FILE]
                                     [--write FILE] [--yes]
               pressurectl calibrate --reset [--device ID] [--socket PATH]
        Asks for ordinary taps, then firm presses, showing the pressure live; proposes the calibration and
        prints it as a configuration section (docs/configuration.md), which it appends to a file on request.
          --taps N            taps to ask for (default 8; Enter moves on sooner)
          --presses N         firm presses to ask for (default 5; Enter finishes sooner)
          --write FILE        the configuration file to append the section to (asked y/n unless --yes;
                              interactive default \(defaultConfigurationPath))
          --yes               no questions: append to --write FILE if given
          --from-capture F    run the same session on a recorded capture instead of a live device: contacts
                              that begin before --taps-until SECONDS (from its first event) are the taps,
                              the rest the firm presses
          --reset             no measuring: the running daemon forgets the average touch it learned for the
                              device (or every device) and learns it afresh (pressurectl calibrate --reset --help)
        Without a calibration the daemon learns each device's average touch from its ordinary touches;
        a section this writes takes precedence over that. Reading the device needs the `input` group, or
        root. `pressurectl devices` lists the devices.
        """

    /// Where the interactive question offers to write.
    public static let defaultConfigurationPath = "/etc/pressured/pressured.conf"

    struct Options {
        var source: String
        var fromCapture = false
        var tapsUntil: Double?
        var descPath: String?
        var deviceIndex: Int?
        var taps = 8
        var presses = 5
        var writePath: String?
        var yes = false
    }

    /// Runs the command; returns the exit status: 0 with a proposal (written or not, as asked), 1 when
    /// the measurements or the device cannot be used (the message says what to do), 2 bad usage.
    public static func main(_ arguments: [String]) -> Int32 {
        let o: Options
        do {
            guard let parsed = try parse(arguments) else {
                print(usage)
                return 0
            }
            o = parsed
        } catch {
            Log.error("pressurectl calibrate: \(error)")
            Log.plain(usage)
            return 2
        }
        return o.fromCapture ? fromCapture(o) : live(o)
    }

    /// nil for `--help`.
    static func parse(_ arguments: [String]) throws(OptionReader.UsageError) -> Options? {
        var options = OptionReader(arguments)
        if options.flag("-h") || options.flag("--help") { return nil }
        let yes = options.flag("--yes") || options.flag("-y")
        let capture = try options.value("--from-capture")
        let until = try options.value("--taps-until")
        let descPath = try options.value("--desc")
        let deviceIndex = try options.integer("--device", in: 0...1023)
        let taps = try options.integer("--taps", in: 1...100)
        let presses = try options.integer("--presses", in: 1...100)
        let writePath = try options.value("--write")
        let rest = try options.finish()
        var o: Options
        if let capture {
            guard rest.isEmpty else { throw .init("give either DEVICE or --from-capture, not both") }
            guard let text = until, let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                throw .init("--from-capture needs --taps-until SECONDS: when the taps end and the firm presses begin")
            }
            guard taps == nil, presses == nil else { throw .init("--taps and --presses go with a live DEVICE") }
            o = Options(source: capture, fromCapture: true, tapsUntil: seconds)
        } else {
            guard rest.count == 1, let node = rest.first else {
                throw .init("give the device to calibrate, e.g. /dev/input/event5 (see `pressurectl devices`)")
            }
            guard until == nil, descPath == nil, deviceIndex == nil else {
                throw .init("--taps-until, --desc and --device go with --from-capture")
            }
            o = Options(source: node)
            o.taps = taps ?? o.taps
            o.presses = presses ?? o.presses
        }
        o.descPath = descPath
        o.deviceIndex = deviceIndex
        o.writePath = writePath
        o.yes = yes
        return o
    }

    /// The same session on a recorded capture, split into taps and presses by time; no questions.
    static func fromCapture(_ o: Options) -> Int32 {
        var session: CalibrationSession
        let capture: CaptureStream
        var replay: CaptureReplay
        do {
            capture = try CaptureLoader.open(path: o.source, descriptionPath: o.descPath, deviceIndex: o.deviceIndex)
            CaptureLoader.warnAssumptions(capture, prefix: "pressurectl calibrate: ")
            session = try makeSession(capture.device, source: o.source)
            replay = try CaptureReplay(capture)
        } catch {
            Log.error("pressurectl calibrate: \(error)")
            return 1
        }
        let start = replay.nextTime ?? Timestamp(microseconds: 0)
        let split = start + Timestamp.Duration(microseconds: Int64(((o.tapsUntil ?? 0) * 1e6).rounded()))
        var report = ContactReport()
        do throws(CaptureError) {
            while !replay.isFinished {
                for e in try replay.take() {
                    if session.phase == .taps && e.time >= split { session.phase = .presses }
                    for c in session.handle(e) { report.finished(c) }
                }
            }
        } catch {
            Log.error("pressurectl calibrate: \(error)")
            return 1
        }
        return CalibrationOutput.conclude(
            session, device: capture.device, writePath: o.writePath, yes: o.yes, interactive: false)
    }

    /// A session for a device description, or an error saying why it cannot be calibrated.
    static func makeSession(_ description: DeviceDescription, source: String) throws(CalibrationError)
        -> CalibrationSession
    {
        let device: TouchDevice
        do { device = try TouchDevice(description) } catch { throw .notTouch("\(source): \(error)") }
        do { return try CalibrationSession(device: device) } catch { throw .notTouch("\(source): \(error)") }
    }
}
