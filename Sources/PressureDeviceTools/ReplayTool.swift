import Glibc
import PressureCapture
import PressureCommandLine
import PressureCore
import PressureLinux

/// `pressurectl replay`: a capture through exactly the daemon's pipeline, JSON lines to stdout.
public enum ReplayTool {
    public static let usage = """
        usage: pressurectl replay [--touches] [--config FILE] [--device N] [--desc FILE]
                                  [--sensitivity light|medium|firm] [--force-touch on|off] [--learned FILE]
                                  [--learn-first | --fresh] [--save-learned FILE] [--verbose] CAPTURE
        Prints, as JSON lines, what apps would receive from the capture (evemu 1.1–1.3, libinput record 1,
        evtest output or an Android getevent -lt / -t log; what is assumed of a log's device is said on stderr):
        gestures, and `device changed` when what the device learned changes its force. By default (--fresh)
        the device learns its average touch as the capture plays, as a freshly started daemon would.
          --touches             every touch phase too, not only gestures
          --save-learned FILE   write what the device learned by the end (for --learned, here or in
                                pressured)
          --verbose             log each gesture state transition to stderr

        """ + ReplayOptions.usage

    /// Runs the command; returns the exit status (0 success, 1 bad input, 2 usage).
    public static func main(_ arguments: [String]) -> Int32 {
        do {
            var options = OptionReader(arguments)
            if options.flag("-h") || options.flag("--help") {
                print(usage)
                return 0
            }
            let touches = options.flag("--touches")
            let verbose = options.flag("--verbose")
            let saveLearned = try options.value("--save-learned")
            let shared = try ReplayOptions.read(&options)
            let files = try options.finish()
            guard files.count == 1, let path = files.first else {
                throw OptionReader.UsageError("give exactly one capture file")
            }
            if verbose { Log.threshold = .debug }
            var learner: AverageTouchLearner? = nil
            if try shared.averageTouch(default: .fresh) == .learnFirst {
                let learning: CaptureLearning
                do { learning = try CaptureLearning.learn(shared, capture: path) } catch {
                    if case .usage(let u) = error { throw u }
                    throw error
                }
                learner = learning.held
                if learner == nil {
                    let why = learning.learner == nil
                        ? "the device learns nothing (no pressure, or its average touch is configured)"
                        : "too few ordinary contacts to learn the average touch from"
                    Log.notice("pressurectl replay: \(path): \(why); replayed as a fresh device")
                }
            }
            let (device, pipeline) = try replay(
                shared, path: path, touches: touches, verbose: verbose, firstPass: verbose ? .wholeFile : .header,
                learner: learner)
            if let file = saveLearned {
                guard let key = LearnedDeviceKey(device), let learner = pipeline.force.learner else {
                    throw OptionReader.UsageError("--save-learned: this device learns nothing (no pressure, or its average is configured)")
                }
                try OutputFile.replace(file, with: LearnedAverageFile.encode(learner, for: key))
            }
            let d = pipeline.tracker.diagnostics
            if d != TrackerDiagnostics() {
                Log.notice("\(path): coped with odd input: \(d.droppedReports) SYN_DROPPED, \(d.eventsForUnknownSlots) events for undeclared slots, \(d.trackingIDsReplacedWithoutLift) tracking ids replaced without lift, \(d.valuesClamped) values clamped, \(d.contactsBeyondCapacity) contacts beyond capacity, \(d.palms) palms ignored (\(d.palmsByToolType) MT_TOOL_PALM, \(d.palmsBySize) larger than the palm size)")
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

    /// Output held back while the capture is not yet checked whole, at most: then the rest of the file is
    /// checked at once. Gestures of about two hours of capture fit; a replay with `--touches` reaches it
    /// within seconds.
    static let holdLimit = 1 << 20

    /// Loads the capture with `firstPass` and plays it. One pass where the file allows it (an evemu
    /// header, then events checked as they play); where a header line follows an event the description was
    /// not whole, and the capture is played again, checked whole first (nothing was printed). `--verbose`
    /// logs transitions as they happen, so it checks the whole file first.
    /// The device starts from `learner` where one is given (``CaptureLearning/held``).
    static func replay(
        _ shared: ReplayOptions, path: String, touches: Bool, verbose: Bool, firstPass: CaptureStream.FirstPass,
        learner: AverageTouchLearner? = nil
    ) throws -> (TouchDevice, TouchPipeline) {
        var setup: ReplaySetup
        do {
            setup = try shared.load(capture: path, reportsTouches: touches, firstPass: firstPass, learner: learner)
        } catch {
            if case .usage(let u) = error { throw u }
            throw error
        }
        CaptureLoader.warnAssumptions(setup.capture, prefix: "pressurectl replay: ")
        do {
            return (setup.device, try play(&setup, path: path, verbose: verbose))
        } catch let e as CaptureError where e.reason == .headerAfterEvents && firstPass == .header {
            return try replay(
                shared, path: path, touches: touches, verbose: verbose, firstPass: .wholeFile, learner: learner)
        }
    }

    /// What apps would receive from the capture, as JSON lines to stdout. While its lines are not all
    /// checked (``CaptureReplay/isChecked``) they are held back, up to ``holdLimit``, so a bad line prints
    /// nothing, as where the whole file is checked first.
    static func play(_ setup: inout ReplaySetup, path: String, verbose: Bool) throws -> TouchPipeline {
        setup.pipeline.recordsTransitions = verbose
        var pipeline = setup.pipeline
        if verbose {
            Log.debug("device \"\(setup.device.description.name)\": \(setup.device.kind.rawValue), \(ForceReport.line(pipeline))")
        }
        var out = BufferedOutput(fd: 1)
        var writeError: SystemError? = nil
        let node = "replay:\(path)"
        let assumed = setup.capture.assumptions
        var replay = try CaptureReplay(setup.capture)
        var released = replay.isChecked
        try CaptureReplay.run(&replay, through: &pipeline, deliver: { outputs, transitions in
            for t in transitions {
                Log.debug("contact \(t.contact): \(t.from) → \(t.input) → \(t.to)\(t.impossible ? " (impossible)" : "")")
            }
            for e in outputs { WireFormat.append(e, to: &out.buffer) }
            if released, writeError == nil {
                do throws(SystemError) { try out.flushIfFull() } catch { writeError = error }
            }
        }, announce: { p in
            // What a client of `pressured --replay` hears at this point: the device's new force.
            var info = DeviceInfo(id: p.deviceID, node: node, pipeline: p)
            info.assumed = assumed
            ServerMessage.device(change: .changed, info).append(to: &out.buffer)
            if verbose { Log.debug("device: \(ForceReport.line(p))") }
        }, checkRestNow: {
            guard out.buffer.count >= holdLimit else { return false }
            released = true
            return true
        })
        if let e = writeError { throw e }
        try out.flush()
        return pipeline
    }
}
