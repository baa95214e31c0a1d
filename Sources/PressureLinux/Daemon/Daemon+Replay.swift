import Glibc
import PressureCommandLine
import PressureCore

/// `--replay`: a capture served through the whole daemon, socket included.
extension Daemon {
    /// A capture to replay and what `--learned` says it learned: opened, every line checked and its first
    /// batch read, and refused, before the socket is bound, so a daemon that cannot start never accepts a
    /// client first. The capture is streamed from its file as it plays (the file stays open).
    struct ReplayInput {
        let path: String
        let capture: CaptureStream
        let events: CaptureReplay
        let learned: AverageTouchLearner?
    }

    static func loadReplay(_ path: String, options: DaemonOptions) throws(DaemonError) -> ReplayInput {
        let capture: CaptureStream
        do {
            capture = try CaptureLoader.open(
                path: path, descriptionPath: options.replayDescription, deviceIndex: options.replayDevice)
        } catch { throw .replay(error) }
        let events: CaptureReplay
        do { events = try CaptureReplay(capture) } catch { throw .replay(.capture(error)) }
        CaptureLoader.warnAssumptions(capture, prefix: "replay: ")
        var learned: AverageTouchLearner? = nil
        if let file = options.replayLearned {
            guard let device = try? TouchDevice(capture.device) else { throw .replayNotTouch(path) }
            do { learned = try LearnedStateStore.read(path: file, for: device) } catch { throw .learned(error) }
        }
        return ReplayInput(path: path, capture: capture, events: events, learned: learned)
    }

    func startReplaySource(_ input: ReplayInput) throws(DaemonError) {
        let (path, capture, learned) = (input.path, input.capture, input.learned)
        let source = ReplaySource(input.events, speed: options.speed)
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
        var failure: CaptureError? = nil
        do throws(CaptureError) {
            // Paced, every event due by now (a streamed capture's batches end slices); at speed 0 one
            // batch a wake-up, so clients are written to between batches.
            repeat {
                let due = try r.source.due(atMonotonic: now)
                if due.isEmpty { break }
                hub.handle(device: r.device, events: due)
            } while r.source.speed > 0
        } catch {
            failure = error
        }
        if r.source.finished || failure != nil {
            // As when a device is unplugged: contacts still down are cancelled, open peeks dismissed.
            hub.removeDevice(r.device)
            replay = nil
            if let failure {
                Log.error("replay: \(failure); the replay ends there")
            } else {
                Log.info("replay finished")
            }
            if options.exitWhenDone { running = false }
        }
    }
}
