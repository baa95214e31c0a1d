import PressureCapture
import PressureCore
import PressureHub

/// A replay being served: its source and the hub's device it plays as, and how it is paced against the
/// clients that read it. At full speed it waits while a subscriber that keeps up has ``backlog`` queued,
/// but for one whose socket takes nothing at most ``stallLimit``: after that the replay goes on without
/// it, and its queue follows the rules it follows for a live device (its touches' `moved` coalesced,
/// disconnected `too-slow` when full), so one stuck client never freezes the others, and
/// `--exit-when-done` always comes.
struct ReplayRun {
    let source: ReplaySource
    let device: Int
    /// At full speed, when the readers let the replay go on (``wake``), as they were last looked at.
    private var readersWake: Int64 = 1

    init(source: ReplaySource, device: Int) {
        self.source = source
        self.device = device
    }

    /// Bytes queued for a subscriber that hold a full-speed replay back.
    static let backlog = 64 * 1024
    /// How long (µs) a subscriber whose socket takes nothing holds it back at most.
    static let stallLimit: Int64 = 1_000_000

    /// Looks at the subscribers a full-speed replay waits for (a command: ``wake`` reads what it found).
    /// A subscriber with ``backlog`` queued holds the replay back: its stall starts when it is first seen
    /// doing so, and again whenever its socket took bytes since the last look
    /// (``ClientConnection/tookBytes``), so a reader that keeps up is always waited for, one whose socket
    /// takes nothing for ``stallLimit`` no longer. `now`: the monotonic clock, read only when someone
    /// holds the replay back.
    mutating func noteReaders(hub: borrowing Hub, clients: ClientConnections, now: () -> Int64 = monotonicMicroseconds) {
        guard source.started, !source.finished, source.speed <= 0 else { return }
        var wake: Int64 = 1
        var time: Int64? = nil
        for (id, c) in clients where hub.backlog(client: id) >= Self.backlog {
            let t = time ?? now()
            time = t
            if c.tookBytes || c.stalledSince == nil {
                c.tookBytes = false
                c.stalledSince = t
            }
            let giveUp = (c.stalledSince ?? t) + Self.stallLimit
            if giveUp > t { wake = max(wake, giveUp) }
        }
        readersWake = wake
    }

    /// When the next events are due, on the monotonic clock (nil: none, or not started). At the
    /// capture's pace, its next events' time; at full speed, as the last ``noteReaders(hub:clients:now:)``
    /// found: at once (1, in the past) unless a subscriber that keeps up holds it back, then when its
    /// socket drains (the loop wakes for that) or, at the latest, when the replay stops waiting for it.
    var wake: Int64? {
        guard source.started, !source.finished else { return nil }
        return source.speed > 0 ? source.nextWake : readersWake
    }

    /// Feeds the events due by `now` into the hub, telling it when each slice is queued (its latency
    /// figures); the hub's own tick, after this, fires the long presses due. At full speed: slices, up to
    /// a batch, for as long as no reader the replay waits for has its fill.
    mutating func step(now: Int64, hub: inout Hub, clients: ClientConnections) throws(CaptureError) {
        guard source.started else { return }
        if source.speed > 0 {
            // Paced: every event due by now (a streamed capture's batches end slices: take again).
            while true {
                let due = try source.due(atMonotonic: now)
                if due.isEmpty { break }
                hub.handle(device: device, events: due)
                LatencyClock.framesQueued(&hub)
            }
            return
        }
        // A slice is empty only once the capture is finished.
        var fed = 0
        while fed < ReplaySource.batch, !source.finished {
            noteReaders(hub: hub, clients: clients)
            guard (wake ?? 1) <= now else { break }
            let slice = try source.due(atMonotonic: now)
            if slice.isEmpty { break }
            // No clock maps the capture's times at full speed: latency runs from this hand-over.
            let handedOver = Timestamp(microseconds: monotonicMicroseconds())
            hub.handle(device: device, events: slice, handedOverAt: handedOver)
            fed += slice.count
            LatencyClock.framesQueued(&hub)
        }
    }
}
