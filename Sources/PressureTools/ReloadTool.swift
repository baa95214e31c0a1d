import Glibc
import PressureClient
import PressureCommandLine

/// `pressurectl reload`: asks the running daemon to read its configuration files again (the protocol's
/// `reload` request, as `SIGHUP` does) and says what is in force now, or why nothing changed.
public enum ReloadTool {
    public static let usage = """
        usage: pressurectl reload [--socket PATH]
        Asks the running pressured to read its configuration again (as SIGHUP does) and prints the settings
        now in force. A file it cannot use is refused with the file and line, and the old configuration stays.
          --socket PATH   the daemon's socket (default $PRESSURED_SOCKET, else /run/pressured/pressured.sock)
        Reloading is a control request: root, the daemon's user, or a member of the configuration's
        ControlGroup.
        """

    /// Runs the command; returns the exit status: 0 reloaded, 1 refused or no daemon, 2 bad usage.
    public static func main(_ arguments: [String]) -> Int32 {
        switch DaemonToolOptions.parse(arguments, command: "reload", usage: usage, flags: []) {
        case .run(let options): return BlockingRun.run { [path = options.socketPath] in await reload(path: path) }
        case .exit(let status): return status
        }
    }

    static func reload(path: String) async -> Int32 {
        do throws(PressuredClientError) {
            let connection = try await PressuredConnection.connect(path: path)
            defer { connection.close() }
            let now = try await connection.reload()
            print("configuration reloaded: " + MonitorFormat.settings(now))
            return 0
        } catch {
            Log.error("pressurectl reload: " + DaemonConnectionAdvice.explain(error, path: path, request: "reload"))
            return 1
        }
    }
}
