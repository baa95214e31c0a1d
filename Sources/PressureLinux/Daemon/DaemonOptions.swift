import Glibc
import PressureCommandLine
import PressureHub

/// `pressured`'s command line.
public struct DaemonOptions: Sendable {
    public var socketPath = "/run/pressured/pressured.sock"
    /// Group owning the socket file: its members may connect. (Control is for root, the daemon's user and
    /// the configuration's `ControlGroup`.)
    public var group: String? = nil
    /// Configuration files, merged in order; default `/etc/pressured/pressured.conf` where it exists.
    public var configPaths: [String] = []
    /// Pinned device nodes: when given, only these are served and discovery is off.
    public var devices: [String] = []
    public var grab = false
    public var replay: String? = nil
    public var replayDescription: String? = nil
    public var replayDevice: Int? = nil
    /// A learned-average file the replayed device starts from (`--learned`).
    public var replayLearned: String? = nil
    public var speed = 1.0
    public var exitWhenDone = false
    public var realtime = false
    public var verbose = false
    /// Where to scan for device nodes when udev is not running.
    public var inputDirectory = "/dev/input"
    /// Where what each device learned is kept (`learned/` under it): `--state-directory`, else systemd's
    /// `$STATE_DIRECTORY` (`StateDirectory=pressured`), else `/var/lib/pressured`.
    public var stateDirectory = DaemonOptions.defaultStateDirectory()
    /// How long a window of the budget for lines about clients lasts, and so how often a summary may come
    /// (``ClientActivityLog``): a minute; `--log-window SECONDS`, not in the usage, lets tests see one.
    public var logWindowMicroseconds: Int64 = 60_000_000

    /// systemd's first `$STATE_DIRECTORY`, else `/var/lib/pressured`.
    public static func defaultStateDirectory() -> String {
        if let dirs = getenv("STATE_DIRECTORY").map({ String(cString: $0) }),
           let first = dirs.split(separator: ":").first, !first.isEmpty
        {
            return String(first)
        }
        return "/var/lib/pressured"
    }

    public static let defaultConfigPath = "/etc/pressured/pressured.conf"

    public static let usage = """
        usage: pressured [--socket PATH] [--group NAME] [--config FILE]... [--device /dev/input/eventN]...
                         [--grab] [--realtime] [--verbose]
               pressured --replay CAPTURE [--desc FILE] [--replay-device N] [--speed X] [--exit-when-done] [...]
          --socket PATH      listening socket (default /run/pressured/pressured.sock)
          --group NAME       group owning the socket: its members may connect (control requests
                             need root or the configuration's ControlGroup)
          --config FILE      configuration file (repeatable; default /etc/pressured/pressured.conf if present)
          --device NODE      serve only this device node (repeatable); no discovery
          --grab             grab devices (EVIOCGRAB): nobody else gets their events
          --realtime         lock memory and ask for SCHED_FIFO
          --replay CAPTURE   serve a recorded capture instead of devices, once a client has subscribed
          --speed X          replay pace: 1 real time, 2 twice as fast, 0 as fast as possible
          --learned FILE     the replayed device starts from this learned average (pressurectl replay --save-learned)
          --exit-when-done   stop once the replay has ended and every client has read what it
                             was sent (its requests answered), or stopped reading for a second
          --state-directory D  where what devices learned is kept (default $STATE_DIRECTORY or
                             /var/lib/pressured; replayed and virtual devices learn in memory only)
          --verbose          log every gesture state transition, and every line about clients (past
                             20 a minute they are otherwise summed up)
        """

    public init() {}

    public init(arguments: [String]) throws(OptionReader.UsageError) {
        var o = OptionReader(arguments)
        if let s = try o.value("--socket") { socketPath = s }
        group = try o.value("--group")
        configPaths = try o.values("--config")
        devices = try o.values("--device")
        grab = o.flag("--grab")
        replay = try o.value("--replay")
        replayDescription = try o.value("--desc")
        replayDevice = try o.integer("--replay-device", in: 0...1023)
        replayLearned = try o.value("--learned")
        if let s = try o.value("--speed") {
            guard let v = Double(s), v >= 0, v <= 1000 else {
                throw OptionReader.UsageError("--speed takes a number from 0 (as fast as possible) to 1000, not '\(s)'")
            }
            speed = v
        }
        exitWhenDone = o.flag("--exit-when-done")
        realtime = o.flag("--realtime")
        verbose = o.flag("--verbose")
        if let d = try o.value("--input-directory") { inputDirectory = d }
        if let d = try o.value("--state-directory") { stateDirectory = d }
        if let s = try o.value("--log-window") {
            guard let v = Double(s), v >= 0.1, v <= 3600 else {
                throw OptionReader.UsageError("--log-window takes seconds from 0.1 to 3600, not '\(s)'")
            }
            logWindowMicroseconds = Int64(v * 1_000_000)
        }
        let rest = try o.finish()
        guard rest.isEmpty else { throw OptionReader.UsageError("unexpected argument '\(rest[0])'") }
        if exitWhenDone && replay == nil { throw OptionReader.UsageError("--exit-when-done goes with --replay") }
    }
}
