import Glibc
import PressureClient
import PressureCommandLine

/// `pressurectl calibrate --reset`: asks the running daemon to forget what a device (or every device)
/// learned of its average touch (the protocol's `resetLearning` control request). The device learns
/// afresh from its next ordinary touches, with force unavailable until it has; its state file goes.
public enum ResetLearningTool {
    public static let usage = """
        usage: pressurectl calibrate --reset [--device ID] [--socket PATH]
        Asks the running pressured to forget the average touch it learned for a device (its id, as
        `pressurectl status` and `monitor` show it), or for every device, and to learn it afresh.
          --device ID     only this device (default: every device)
          --socket PATH   the daemon's socket (default $PRESSURED_SOCKET, else /run/pressured/pressured.sock)
        Resetting is a control request: root, or a member of the daemon's group (pressured --group).
        """

    /// Runs the command; returns the exit status: 0 reset (or nothing to reset), 1 refused or no daemon,
    /// 2 bad usage.
    public static func main(_ arguments: [String]) -> Int32 {
        var device: Int? = nil
        var rest: [String] = []
        do {
            var options = OptionReader(arguments.filter { $0 != "--reset" })
            device = try options.integer("--device", in: 1...Int(Int32.max))
            rest = options.remaining
        } catch {
            Log.error("pressurectl calibrate --reset: \(error)")
            Log.plain(usage)
            return 2
        }
        switch DaemonToolOptions.parse(rest, command: "calibrate --reset", usage: usage, flags: []) {
        case .run(let o): return BlockingRun.run { [path = o.socketPath, device] in await reset(path: path, device: device) }
        case .exit(let status): return status
        }
    }

    /// What the tool says once the daemon answered: the devices it reset (`ids`), or that none learns.
    static func summary(reset ids: [Int]) -> String {
        if ids.isEmpty {
            return "nothing to reset: no device learns its average touch (configured, or LearnAverageTouch = off)"
        }
        return "forgot what device\(ids.count == 1 ? "" : "s") \(ids.map(String.init).joined(separator: ", ")) learned; learning afresh"
    }

    static func reset(path: String, device: Int?) async -> Int32 {
        do throws(PressuredClientError) {
            let connection = try await PressuredConnection.connect(path: path)
            defer { connection.close() }
            print(summary(reset: try await connection.resetLearning(device: device)))
            return 0
        } catch {
            Log.error("pressurectl calibrate --reset: "
                + DaemonConnectionAdvice.explain(error, path: path, request: "resetLearning"))
            return 1
        }
    }
}
