import Glibc
import PressureClient
import PressureCore
import PressureLinux

/// `pressurectl reload`: asks the running daemon to read its configuration files again (the protocol's
/// `reload` request, as `SIGHUP` does) and says what is in force now, or why nothing changed.
public enum ReloadTool {
    public static let usage = """
        usage: pressurectl reload [--socket PATH]
        Asks the running pressured to read its configuration again (as SIGHUP does) and prints the settings
        now in force. A file it cannot use is refused with the file and line, and the old configuration stays.
          --socket PATH   the daemon's socket (default $PRESSURED_SOCKET, else /run/pressured/pressured.sock)
        Reloading is a control request: root, or a member of the daemon's group (pressured --group).
        """

    /// Runs the command; returns the exit status: 0 reloaded, 1 refused or no daemon, 2 bad usage.
    public static func main(_ arguments: [String]) -> Int32 {
        var path = PressuredConnection.environmentSocketPath
        do {
            var options = OptionReader(arguments)
            if options.flag("-h") || options.flag("--help") {
                print(usage)
                return 0
            }
            if let p = try options.value("--socket") { path = p }
            guard try options.finish().isEmpty else { throw OptionReader.UsageError("reload takes no arguments") }
        } catch {
            Log.error("pressurectl reload: \(error)")
            Log.plain(usage)
            return 2
        }
        return BlockingRun.run { [path] in await reload(path: path) }
    }

    static func reload(path: String) async -> Int32 {
        do throws(PressuredClientError) {
            let connection = try await PressuredConnection.connect(path: path)
            defer { connection.close() }
            let reply = try await connection.request("reload")
            let settings = reply["settings"]
            let forceTouch = settings?["forceTouch"]?.boolValue ?? true
            let sensitivity = settings?["sensitivity"]?.stringValue.flatMap(Sensitivity.init(rawValue:)) ?? .medium
            let now = PublicSettings(GestureSettings(forceTouchEnabled: forceTouch, sensitivity: sensitivity))
            print("configuration reloaded: " + MonitorFormat.settings(now))
            return 0
        } catch {
            Log.error("pressurectl reload: " + DaemonConnectionAdvice.explain(error, path: path, request: "reload"))
            return 1
        }
    }
}
