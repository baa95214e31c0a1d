import PressureCapture
import PressureCommandLine
import PressureCore
import PressureHub

/// The daemon's replay driver (`pressured --replay`): a capture served as a device through the whole
/// daemon, socket included (``ReplayRun``). It starts once a client has subscribed, steps on the loop's
/// timer (at the capture's pace, or at full speed paced by its readers), and ends as a device unplugged;
/// with `--exit-when-done` it then waits for the clients to read what they were sent (``ClientCatchUp``)
/// before it lets the daemon stop.
///
/// The hub is the daemon's, passed in place to each call (it is non-copyable: one owner); the clients'
/// sockets are the clients handler's, looked at only while a replay plays or is being caught up with.
final class ReplayDriver {
    /// The replay being served: nil without `--replay`, and once it has ended.
    // `@exclusivity(unchecked)` on the state read a frame: only the loop's thread touches it, and no
    // access overlaps another (checked when compiled); see ``Daemon``'s `hub`.
    @exclusivity(unchecked) private var run: ReplayRun? = nil
    /// `--exit-when-done` after the replay's end: waiting for the clients to read what they were sent.
    @exclusivity(unchecked) private var catchUp: ClientCatchUp? = nil
    /// `--exit-when-done`: the daemon stops once the replay has ended and the clients have read it.
    private let exitWhenDone: Bool

    init(exitWhenDone: Bool) {
        self.exitWhenDone = exitWhenDone
    }

    /// Adds the capture's device to the hub; it plays once a client subscribes. A capture of no touch
    /// device is refused.
    func start(_ input: ReplayInput, speed: Double, hub: inout Hub) throws(DaemonError) {
        let source = ReplaySource(input.events, speed: speed)
        // A replayed device learns in memory only, and keeps the capture's times.
        guard let id = hub.addDevice(
            node: "replay:\(input.path)", description: input.capture.device, learned: input.learned,
            assumed: input.capture.assumptions, clock: source.clock)
        else {
            throw .replayNotTouch(input.path)
        }
        run = ReplayRun(source: source, device: id)
        Log.info("replay of \(input.path) (\(source.eventCount) events) starts when a client subscribes")
    }

    /// The replay starts once some client has subscribed, so its first events reach someone.
    func startIfSubscribed(hub: inout Hub) {
        guard let r = run, !r.source.started, hub.hasSubscriber else { return }
        r.source.start(atMonotonic: monotonicMicroseconds())
        hub.setClock(r.source.clock, device: r.device)
        Log.info("replay started")
    }

    /// Looks at the readers a full-speed replay waits for, before the loop reads when it is due
    /// (``ReplayRun/noteReaders(hub:clients:now:)``).
    func noteReaders(hub: borrowing Hub, clients: ClientsHandler) {
        run?.noteReaders(hub: hub, clients: clients.connections)
    }

    /// When the replay's next events are due (``ReplayRun/wake``); nil when none is playing.
    var wake: Int64? { run?.wake }

    /// When to look again whether the clients have read everything, while the daemon waits for them.
    var catchUpWake: Int64? {
        catchUp == nil ? nil : monotonicMicroseconds() + ClientCatchUp.checkInterval
    }

    /// Feeds the replay's events due by `now`; at its end (or a capture error), the device goes as when
    /// one is unplugged: contacts still down are cancelled, open peeks dismissed.
    func step(now: Int64, hub: inout Hub, clients: ClientsHandler) {
        guard let r = run, r.source.started else { return }
        var failure: CaptureError? = nil
        do throws(CaptureError) { try run?.step(now: now, hub: &hub, clients: clients.connections) } catch { failure = error }
        guard r.source.finished || failure != nil else { return }
        hub.removeDevice(r.device)
        run = nil
        if let failure {
            Log.error("replay: \(failure); the replay ends there")
        } else {
            Log.info("replay finished")
        }
        // Stopping waits until the clients have read what they were sent (their requests answered).
        if exitWhenDone { catchUp = ClientCatchUp() }
    }

    /// After the replay's end with `--exit-when-done`: looks at what the clients have still to read
    /// (``ClientCatchUp/look(now:hub:clients:)``).
    func followCatchUp(hub: borrowing Hub, clients: ClientsHandler) {
        guard catchUp != nil else { return }
        catchUp?.look(now: monotonicMicroseconds(), hub: hub, clients: clients.connections)
    }

    /// Whether the daemon may stop: `--exit-when-done`, the replay has ended and, at the last look, every
    /// client had read what it was sent (or stopped reading).
    var clientsCaughtUp: Bool { catchUp?.allCaughtUp ?? false }
}
