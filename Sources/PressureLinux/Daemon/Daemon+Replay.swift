import Glibc
import PressureCapture
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

    /// A replay at full speed waits while a subscriber that keeps up has this much queued...
    static let replayBacklog = 64 * 1024
    /// ...but for one whose socket takes nothing at most this long (µs): after that the replay goes on
    /// without it, and its queue follows the rules it follows for a live device (its touches' `moved`
    /// coalesced past 128 KiB, disconnected `too-slow` when full), so one stuck client never freezes the
    /// others, and `--exit-when-done` always comes.
    static let replayStallLimit: Int64 = 1_000_000

    /// When the replay's next events are due, on the monotonic clock (nil: none, or it has not started).
    /// At full speed that is at once (1, in the past) unless a subscriber that keeps up holds it back:
    /// then when its socket drains (the loop wakes for that) or, at the latest, when the replay stops
    /// waiting for it.
    func replayWake() -> Int64? {
        guard let r = replay, r.source.started, !r.source.finished else { return nil }
        guard r.source.speed <= 0 else { return r.source.nextWake }
        var wake: Int64 = 1
        var now: Int64? = nil
        for (id, c) in clients where hub.backlog(client: id) >= Self.replayBacklog {
            let t = now ?? monotonicMicroseconds()
            now = t
            if c.tookBytes || c.stalledSince == nil {
                c.tookBytes = false
                c.stalledSince = t
            }
            let giveUp = (c.stalledSince ?? t) + Self.replayStallLimit
            if giveUp > t { wake = max(wake, giveUp) }
        }
        return wake
    }

    /// Feeds the events due by `now`; the hub's own tick, after this, fires the long presses due. At full
    /// speed: slices, up to a batch, for as long as no reader the replay waits for has its fill.
    func stepReplay(now: Int64) {
        guard let r = replay, r.source.started else { return }
        var failure: CaptureError? = nil
        do throws(CaptureError) {
            if r.source.speed > 0 {
                // Paced: every event due by now (a streamed capture's batches end slices: take again).
                while true {
                    let due = try r.source.due(atMonotonic: now)
                    if due.isEmpty { break }
                    hub.handle(device: r.device, events: due)
                    queuedNow()
                }
            } else {
                // Full speed: slices, up to a batch a wake-up, while no reader it waits for has its fill (a
                // slice is empty only once the capture is finished).
                var fed = 0
                while fed < ReplaySource.batch, !r.source.finished, (replayWake() ?? 1) <= now {
                    let slice = try r.source.due(atMonotonic: now)
                    if slice.isEmpty { break }
                    // No clock maps the capture's times at full speed: latency runs from this hand-over.
                    let handedOver = Timestamp(microseconds: monotonicMicroseconds())
                    hub.handle(device: r.device, events: slice, handedOverAt: handedOver)
                    fed += slice.count
                    queuedNow()
                }
            }
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
            if options.exitWhenDone { lifetime.finish() }
        }
    }
}
