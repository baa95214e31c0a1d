import Glibc
import PressureCapture
import PressureCommandLine
import PressureCore
import PressureLinux

/// `pressurectl record`: a live device into a file that evemu (`evemu-play`) and libinput
/// (`libinput replay`) play back and `pressurectl replay` reads, until Ctrl-C.
public enum RecordTool {
    public static let usage = """
        usage: pressurectl record DEVICE [-o FILE] [--format evemu|libinput]
               pressurectl record --from-capture CAPTURE [-o FILE] [--format evemu|libinput] [--device N] [--desc FILE]
        Records /dev/input/eventN (shared: the desktop keeps its touches) until Ctrl-C or SIGTERM, which end the
        file cleanly. Times start at 0 with the first event.
          -o, --output FILE   where to write (default: standard output)
          --format F          evemu (default; evemu-play, evemu 1.3) or libinput (libinput replay, record version 1)
          --from-capture F    write a recorded capture's events through the same writer instead of a live device
                              (for tests and format conversion); --device and --desc pick its device as in replay
        Recording needs read access to the device: the `input` group, or root. `pressurectl devices` lists them.
        """

    /// Runs the command; returns the exit status: 0 once the recording is complete (Ctrl-C, SIGTERM, the
    /// device removed, the capture's end), 1 when the device or the output cannot be used, 2 bad usage.
    public static func main(_ arguments: [String]) -> Int32 {
        let output: String?
        let format: RecordingFormat
        let source: String
        let fromCapture: Bool
        let descPath: String?
        let deviceIndex: Int?
        do {
            var options = OptionReader(arguments)
            if options.flag("-h") || options.flag("--help") {
                print(usage)
                return 0
            }
            output = try options.output()
            let formatName = try options.value("--format") ?? RecordingFormat.evemu.rawValue
            guard let f = RecordingFormat(rawValue: formatName) else {
                throw OptionReader.UsageError("--format takes evemu or libinput, not '\(formatName)'")
            }
            format = f
            let capture = try options.value("--from-capture")
            descPath = try options.value("--desc")
            deviceIndex = try options.integer("--device", in: 0...1023)
            let rest = try options.finish()
            if let capture {
                guard rest.isEmpty else { throw OptionReader.UsageError("give either DEVICE or --from-capture, not both") }
                source = capture
                fromCapture = true
            } else {
                guard rest.count == 1, let node = rest.first else {
                    throw OptionReader.UsageError("give the device to record, e.g. /dev/input/event5 (see `pressurectl devices`)")
                }
                guard descPath == nil, deviceIndex == nil else {
                    throw OptionReader.UsageError("--desc and --device go with --from-capture")
                }
                source = node
                fromCapture = false
            }
        } catch {
            Log.error("pressurectl record: \(error)")
            Log.plain(usage)
            return 2
        }
        return fromCapture
            ? recordCapture(source, descPath: descPath, deviceIndex: deviceIndex, format: format, output: output)
            : recordDevice(source, format: format, output: output)
    }

    /// A live device until a signal or its removal.
    static func recordDevice(_ node: String, format: RecordingFormat, output: String?) -> Int32 {
        let device: EvdevDevice
        do { device = try InputDeviceAccess.open(node) } catch {
            Log.error("pressurectl record: \(error)")
            return 1
        }
        defer { device.close() }
        let signals: SignalWatcher
        let loop: EventLoop
        let recording: CaptureRecording
        do {
            // Blocked before anything is written, so a Ctrl-C from now on ends the file cleanly.
            signals = try SignalWatcher(signals: [SIGINT, SIGTERM])
            loop = try EventLoop(capacity: 4)
            try loop.add(device.fd, token: 1)
            try loop.add(signals.fd, token: 2)
            let writer = CaptureWriter(
                format: format, description: device.description, timeBase: .firstEventAtZero, node: node,
                udevProperties: format == .libinput ? RecordingContext.udevProperties(ofNode: node) : [],
                system: format == .libinput ? RecordingContext.system() : [])
            recording = try CaptureRecording(path: output, writer: writer)
        } catch {
            Log.error("pressurectl record: \(error)")
            return 1
        }
        Log.notice("recording \"\(device.description.name)\" (\(node)) to \(output ?? "standard output"); Ctrl-C to stop")
        var events: [InputEvent] = []
        events.reserveCapacity(512)
        var running = true
        var failure: String? = nil
        while running {
            do throws(SystemError) {
                try loop.wait { token, _ in
                    if token == 2 {
                        do throws(SystemError) { try signals.receive { _ in running = false } } catch {
                            failure = error.description
                            running = false
                        }
                        return
                    }
                    events.removeAll(keepingCapacity: true)
                    switch device.read(into: &events) {
                    case .ok:
                        break
                    case .resynced(_, let at):
                        // The kernel's buffer overflowed: keep the marker, as a raw recording would.
                        events.append(InputEvent(time: at, type: EventType.syn, code: SynCode.dropped, value: 0))
                        Log.warning("pressurectl record: \(node): the kernel dropped events (SYN_DROPPED recorded)")
                    case .gone:
                        Log.notice("pressurectl record: \(node) was removed; the recording ends here")
                        running = false
                    case .failed(let e):
                        failure = e.description
                        running = false
                    }
                    do throws(SystemError) { try recording.append(events) } catch {
                        failure = error.description
                        running = false
                    }
                }
            } catch {
                failure = error.description
                running = false
            }
        }
        return conclude(recording, failure: failure)
    }

    /// A recorded capture through the same writer and file handling, one frame per write as a live
    /// device's reads deliver them.
    static func recordCapture(
        _ path: String, descPath: String?, deviceIndex: Int?, format: RecordingFormat, output: String?
    ) -> Int32 {
        let capture: CaptureStream
        var replay: CaptureReplay
        let recording: CaptureRecording
        do {
            capture = try CaptureLoader.open(path: path, descriptionPath: descPath, deviceIndex: deviceIndex)
            replay = try CaptureReplay(capture)
            CaptureLoader.warnAssumptions(capture, prefix: "pressurectl record: ")
            let writer = CaptureWriter(
                format: format, description: capture.device, timeBase: .firstEventAtZero, node: "replay:" + path)
            recording = try CaptureRecording(path: output, writer: writer)
        } catch {
            Log.error("pressurectl record: \(error)")
            return 1
        }
        var failure: String? = nil
        var frame: [InputEvent] = []
        do {
            while !replay.isFinished {
                for e in try replay.take() {
                    frame.append(e)
                    guard e.type == EventType.syn && e.code == SynCode.report else { continue }
                    try recording.append(frame)
                    frame.removeAll(keepingCapacity: true)
                }
            }
            try recording.append(frame)
        } catch {
            failure = "\(error)"
        }
        return conclude(recording, failure: failure)
    }

    static func conclude(_ recording: CaptureRecording, failure: String?) -> Int32 {
        var failure = failure
        do throws(SystemError) { try recording.finish() } catch { failure = failure ?? error.description }
        if let failure {
            Log.error("pressurectl record: \(failure); what was recorded until then is complete")
            return 1
        }
        Log.notice("pressurectl record: \(recording.eventCount) events written to \(recording.path ?? "standard output")")
        return 0
    }
}
