import Glibc
import PressureCommandLine

/// The daemon's systemd supervisor: what the service manager hears from the daemon and keeps for it.
/// `READY=1` once devices are open and the socket bound, `STATUS=` as devices and clients come and go,
/// `RELOADING=1` around a reload, `STOPPING=1`; the watchdog's keep-alives, on a timer of their own armed
/// only when `WatchdogSec=` asks for them (otherwise an idle daemon never wakes); and the descriptors
/// systemd passes: the listening socket, and filter mode's clones from its file descriptor store
/// (``PanelFilters`` stores new ones through ``notify``). Not under systemd (`NOTIFY_SOCKET` unset), it
/// says nothing. The loop routes the `watchdog` token here.
final class SystemdSupervisor {
    /// Where the states go; nil when not under systemd.
    let notify: SystemdNotify?
    /// Armed only when systemd asked for keep-alives (`WatchdogSec=`).
    private var watchdog: DeadlineTimer? = nil
    /// The last `STATUS=` sent; nil until `READY=1` went out (STATUS changes are reported after it).
    private var reportedStatus: String? = nil
    /// The counts `reportedStatus` was built from.
    private var reportedCounts = (devices: -1, clients: -1)

    /// The descriptors systemd passed (``SocketActivation/Passed``): listening sockets, and the clones its
    /// store kept from the last run; those passed twice are closed.
    static func passedDescriptors() -> SocketActivation.Passed {
        let passed = SocketActivation.passed(storedPrefixes: [TouchClone.storePrefix])
        for fd in passed.duplicates { Glibc.close(fd) }
        return passed
    }

    init() {
        notify = SystemdNotify()
    }

    /// Arms the keep-alives' timer in `loop`, when systemd asked for them; a failure is a warning (systemd
    /// will then restart the daemon as hung).
    func startWatchdog(loop: EventLoop) {
        guard let interval = notify?.watchdogIntervalMicroseconds else { return }
        do {
            let w = try DeadlineTimer(name: "watchdog timer")
            try loop.add(w.fd, token: Daemon.Token(.watchdog))
            try w.arm(atMonotonicMicroseconds: monotonicMicroseconds() + interval)
            watchdog = w
        } catch { Log.warning("watchdog: \(error)") }
    }

    /// The keep-alives' timer fired: `WATCHDOG=1`, and the timer armed again; a timer that fails stops
    /// the loop (`lifetime`) with an error, so that systemd starts the daemon afresh.
    func keepAlive(lifetime: inout LoopLifetime) {
        guard let w = watchdog, let interval = notify?.watchdogIntervalMicroseconds else { return }
        do {
            try w.acknowledge()
            notify?.send("WATCHDOG=1")
            try w.arm(atMonotonicMicroseconds: monotonicMicroseconds() + interval)
        } catch { lifetime.fail(error, because: "the keep-alives systemd's watchdog waits for can no longer be sent") }
    }

    /// Devices are open and the socket is bound: ready, from the main process (see docs), with the first
    /// `STATUS=`.
    func ready(devices: Int, clients: Int) {
        notify?.send("READY=1\n\(Self.status(devices: devices, clients: clients))")
        reportedStatus = Self.status(devices: devices, clients: clients)
    }

    /// A reload begins (`RELOADING=1`)...
    func reloading() { notify?.send("RELOADING=1") }

    /// ...and is over, applied or not (`READY=1`).
    func reloaded() { notify?.send("READY=1") }

    /// Whether ``report(devices:clients:)`` may send anything: under systemd, once ready.
    var reportsStatus: Bool { notify != nil && reportedStatus != nil }

    /// Sends `STATUS=` when the counts changed its words. (Counts first: building the string only when
    /// they changed keeps a turn of the loop allocation-free.)
    func report(devices: Int, clients: Int) {
        guard reportsStatus, reportedCounts != (devices, clients) else { return }
        reportedCounts = (devices, clients)
        let now = Self.status(devices: devices, clients: clients)
        if now != reportedStatus {
            notify?.send(now)
            reportedStatus = now
        }
    }

    /// The loop ends: `STOPPING=1`.
    func stopping() { notify?.send("STOPPING=1") }

    /// `STATUS=` for systemctl status.
    static func status(devices n: Int, clients: Int) -> String {
        "STATUS=serving \(n) device\(n == 1 ? "" : "s") to \(clients) client\(clients == 1 ? "" : "s")"
    }
}
