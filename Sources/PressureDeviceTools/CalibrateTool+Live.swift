import Glibc
import PressureCommandLine
import PressureCore
import PressureLinux

extension CalibrateTool {
    static let deviceToken: UInt64 = 1
    static let signalToken: UInt64 = 2
    static let inputToken: UInt64 = 3

    /// The interactive session on a live device: taps, then firm presses, with the pressure shown as it
    /// changes; Enter moves on early, Ctrl-C cancels without writing anything.
    static func live(_ o: Options) -> Int32 {
        let device: EvdevDevice
        var session: CalibrationSession
        do {
            device = try InputDeviceAccess.open(o.source)
            session = try makeSession(device.description, source: o.source)
        } catch {
            Log.error("pressurectl calibrate: \(error)")
            return 1
        }
        defer { device.close() }
        // A status line that rewrites itself only makes sense on a terminal; Enter only from one.
        let terminal = isatty(2) != 0
        let keyboard = isatty(0) != 0
        let signals: SignalWatcher
        let loop: EventLoop
        do {
            signals = try SignalWatcher(signals: [SIGINT, SIGTERM])
            loop = try EventLoop(capacity: 4)
            try loop.add(device.fd, token: deviceToken)
            try loop.add(signals.fd, token: signalToken)
            if keyboard { try loop.add(0, token: inputToken) }
        } catch {
            Log.error("pressurectl calibrate: \(error)")
            return 1
        }
        Log.plain("Calibrating \"\(device.description.name)\" (\(o.source)), pressure \(session.axis.minimum)..\(session.axis.maximum).")
        Log.plain(instructions(.taps, o))
        var report = ContactReport(clearsStatusLine: terminal)
        var events: [InputEvent] = []
        events.reserveCapacity(512)
        var lastStatus: Int64 = 0
        var outcome: Int32? = nil
        var done = false

        /// Moves to the presses, or finishes; refuses while the phase has nothing measured yet.
        func advance() {
            let phase = session.phase
            guard report.count(phase) > 0 else {
                Log.plain(phase == .taps ? "No taps measured yet: tap first." : "No firm presses measured yet: press first.")
                return
            }
            if phase == .taps {
                session.phase = .presses
                Log.plain((terminal ? "\r\u{1b}[K" : "") + instructions(.presses, o))
            } else {
                done = true
            }
        }

        while !done && outcome == nil {
            do throws(SystemError) {
                try loop.wait { token, _ in
                    switch token {
                    case signalToken:
                        do throws(SystemError) { try signals.receive { _ in outcome = 1 } } catch {
                            Log.error("pressurectl calibrate: \(error)")
                            outcome = 1
                        }
                    case inputToken:
                        var buffer = [UInt8](repeating: 0, count: 256)
                        do throws(SystemError) {
                            let read = try nonblockingSyscall("read", "standard input") {
                                buffer.withUnsafeMutableBytes { Glibc.read(0, $0.baseAddress, $0.count) }
                            }
                            // Nil: someone else took the bytes; 0: end of input, Enter can no longer come.
                            if let n = read {
                                if n == 0 { loop.remove(0) } else if buffer[0..<n].contains(0x0a) { advance() }
                            }
                        } catch {
                            loop.remove(0)
                        }
                    default:
                        events.removeAll(keepingCapacity: true)
                        let read = device.read(into: &events)
                        if case .resynced(_, let at) = read {
                            // The kernel dropped events: what the tracker knew is stale, so the contacts
                            // down now are dropped from the measurements (as the daemon cancels them).
                            events.append(InputEvent(time: at, type: EventType.syn, code: SynCode.dropped, value: 0))
                            events.append(InputEvent(time: at, type: EventType.syn, code: SynCode.report, value: 0))
                        }
                        for e in events {
                            for c in session.handle(e) {
                                report.finished(c)
                                let wanted = c.phase == .taps ? o.taps : o.presses
                                if c.phase == session.phase && report.count(c.phase) >= wanted { advance() }
                            }
                        }
                        switch read {
                        case .gone:
                            Log.error("pressurectl calibrate: \(o.source) was removed; nothing written")
                            outcome = 1
                        case .failed(let e):
                            Log.error("pressurectl calibrate: \(e)")
                            outcome = 1
                        case .ok, .resynced:
                            break
                        }
                        let now = monotonicMicroseconds()
                        if terminal && now - lastStatus > 50_000 {
                            lastStatus = now
                            status(session, report, o)
                        }
                    }
                }
            } catch {
                Log.error("pressurectl calibrate: \(error)")
                outcome = 1
            }
        }
        if let outcome {
            Log.plain((terminal ? "\r\u{1b}[K" : "") + "Calibration cancelled; nothing written.")
            return outcome
        }
        if terminal { Log.plain("\r\u{1b}[K") }
        return CalibrationOutput.conclude(
            session, device: device.description, writePath: o.writePath, yes: o.yes, interactive: keyboard)
    }

    static func instructions(_ phase: CalibrationSession.Phase, _ o: Options) -> String {
        switch phase {
        case .taps:
            return "Step 1 of 2: tap the surface \(o.taps) times with one finger, as you normally would to press a button: ordinary taps, not presses. (Enter moves on; Ctrl-C cancels.)"
        case .presses:
            return "Step 2 of 2: now press firmly \(o.presses) times, as hard as you would to open something with a firm press, lifting in between. (Enter finishes.)"
        }
    }

    /// `taps 3/8  now 87 (peak 120)`, rewritten in place.
    static func status(_ session: CalibrationSession, _ report: ContactReport, _ o: Options) {
        let phase = session.phase
        var line = phase == .taps ? "taps \(report.count(.taps))/\(o.taps)" : "firm presses \(report.count(.presses))/\(o.presses)"
        let live = session.live.values.sorted { $0.began < $1.began }
        line += live.isEmpty ? "  (no finger down)" : "  now " + live.map { "\($0.lift) (peak \($0.peak))" }.joined(separator: ", ")
        let text = "\r\u{1b}[K" + line
        text.withCString { p in _ = Glibc.write(2, p, strlen(p)) }
    }
}
