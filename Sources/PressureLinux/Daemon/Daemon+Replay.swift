import Glibc
import PressureCommandLine
import PressureCore

/// `--replay`: a capture served through the whole daemon, socket included.
extension Daemon {
    /// A capture to replay and what `--learned` says it learned: read, and refused, before the socket is
    /// bound, so a daemon that cannot start never accepts a client first.
    struct ReplayInput {
        let path: String
        let capture: Capture
        let learned: AverageTouchLearner?
    }

    static func loadReplay(_ path: String, options: DaemonOptions) throws(DaemonError) -> ReplayInput {
        let capture: Capture
        do {
            capture = try CaptureLoader.load(
                path: path, descriptionPath: options.replayDescription, deviceIndex: options.replayDevice)
        } catch { throw .replay(error) }
        CaptureLoader.warnAssumptions(capture, prefix: "replay: ")
        var learned: AverageTouchLearner? = nil
        if let file = options.replayLearned {
            guard let device = try? TouchDevice(capture.device) else { throw .replayNotTouch(path) }
            do { learned = try LearnedStateStore.read(path: file, for: device) } catch { throw .learned(error) }
        }
        return ReplayInput(path: path, capture: capture, learned: learned)
    }

    func startReplaySource(_ input: ReplayInput) throws(DaemonError) {
        let (path, capture, learned) = (input.path, input.capture, input.learned)
        let source = ReplaySource(CaptureReplay(capture.events), speed: options.speed)
        // A replayed device learns in memory only, and keeps the capture's times.
        guard let id = hub.addDevice(
            node: "replay:\(path)", description: capture.device, learned: learned, assumed: capture.assumptions,
            clock: source.clock)
        else {
            throw .replayNotTouch(path)
        }
        replay = (source, id)
        Log.info("replay of \(path) (\(source.eventCount) events) starts when a client subscribes")
    }

    /// The replay starts once some client has subscribed, so its first events reach someone.
    func startReplayIfSubscribed() {
        guard let r = replay, !r.source.started, hub.hasSubscriber else { return }
        r.source.start(atMonotonic: monotonicMicroseconds())
        hub.setClock(r.source.clock, device: r.device)
        Log.info("replay started")
    }

    /// Feeds the events due by `now`; the hub's own tick, after this, fires the long presses due.
    func stepReplay(now: Int64) {
        guard let r = replay, r.source.started else { return }
        let due = r.source.due(atMonotonic: now)
        if !due.isEmpty { hub.handle(device: r.device, events: due) }
        if r.source.finished {
            // As when a device is unplugged: contacts still down are cancelled, open peeks dismissed.
            hub.removeDevice(r.device)
            replay = nil
            Log.info("replay finished")
            if options.exitWhenDone { lifetime.finish() }
        }
    }
}
