import Glibc
import PressureCommandLine
import PressureCore

/// `--replay`: a capture served through the whole daemon, socket included.
extension Daemon {
    func startReplaySource(_ path: String) throws(DaemonError) {
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
        // A replayed device learns in memory only.
        guard let id = hub.addDevice(
            node: "replay:\(path)", description: capture.device, learned: learned, assumed: capture.assumptions)
        else {
            throw .replayNotTouch(path)
        }
        replay = (ReplaySource(capture: capture, speed: options.speed), id)
        Log.info("replay of \(path) (\(capture.events.count) events) starts when a client subscribes")
    }

    /// The replay starts once some client has subscribed, so its first events reach someone.
    func startReplayIfSubscribed() {
        guard let r = replay, !r.source.started, hub.hasSubscriber else { return }
        r.source.start(atMonotonic: monotonicMicroseconds())
        Log.info("replay started")
    }

    func stepReplay(now: Int64) {
        guard let r = replay, r.source.started else { return }
        let due = r.source.due(atMonotonic: now)
        if !due.isEmpty { hub.handle(device: r.device, events: due) }
        if r.source.speed > 0, !r.source.finished {
            hub.tick(device: r.device, now: r.source.captureTime(atMonotonic: now))
        }
        if r.source.finished {
            // As when a device is unplugged: contacts still down are cancelled, open peeks dismissed.
            hub.removeDevice(r.device)
            replay = nil
            Log.info("replay finished")
            if options.exitWhenDone { running = false }
        }
    }
}
