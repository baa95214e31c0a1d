import Glibc
import PressureClient
import PressureCommandLine

/// `pressurectl status`: what the running daemon holds (the protocol's `status` request): devices,
/// clients, fingers down, regions, quick actions, waiting choices, queued bytes. After everyone lifts and
/// hangs up the counts are back where they started, which is how a leak would show.
public enum StatusTool {
    public static let usage = """
        usage: pressurectl status [--socket PATH] [--json]
        Prints what the running pressured holds now, one count a line: devices, clients, subscribers,
        contacts (fingers down), regionContacts, regions, quickActionApps, pendingChoices, queuedBytes;
        then each device's force: where its average touch comes from (configured, learned, prior), what
        was learned and on how many touches, peek and pop, and why force is off where it is; then each
        device's latency: frames queued and delivered, their mean and the bucket that holds the 99th
        percentile (`pressurectl metrics` gives the histograms whole); then what the daemon did since it
        started (loop wakeups, connections accepted and refused, acceptErrors); then the actions in force
        for each device (`[action]` sections), where there are any.
          --socket PATH   the daemon's socket (default $PRESSURED_SOCKET, else /run/pressured/pressured.sock)
          --json          the daemon's answer as it is, one JSON object
        """

    /// Runs the command; returns the exit status: 0 answered, 1 no daemon or no answer, 2 bad usage.
    public static func main(_ arguments: [String]) -> Int32 {
        switch DaemonToolOptions.parse(arguments, command: "status", usage: usage, flags: ["--json"]) {
        case .run(let o):
            return BlockingRun.run { [path = o.socketPath, json = o.flags.contains("--json")] in
                await status(path: path, json: json)
            }
        case .exit(let status): return status
        }
    }

    static func status(path: String, json: Bool) async -> Int32 {
        do throws(PressuredClientError) {
            let connection = try await PressuredConnection.connect(path: path)
            defer { connection.close() }
            let reply = try await connection.request("status")
            guard let status = reply["status"], case .object(let members) = status else {
                Log.error("pressurectl status: the daemon's answer has no status: is it older than this tool?")
                return 1
            }
            let force = reply["force"]?.arrayValue ?? []
            let latency = reply["latency"]?.arrayValue ?? []
            if json {
                var out: [UInt8] = []
                let since = reply["activity"].map { [("activity", $0)] } ?? []
                    + (reply["actions"].map { [("actions", $0)] } ?? [])
                JSONWriter.append(.object(members + [("force", .array(force)), ("latency", .array(latency))] + since), to: &out)
                print(String(decoding: out, as: UTF8.self))
            } else {
                let width = members.map(\.0.count).max() ?? 0
                for (key, value) in members {
                    let number = value.numberValue.map { String(Int($0)) } ?? "?"
                    print(key + String(repeating: " ", count: width - key.count + 2) + number)
                }
                for entry in force {
                    guard let f = try? DeviceForceStatus(json: entry) else { continue }
                    print("device \(f.device) force: \(f.summary)")
                }
                for entry in latency {
                    guard let l = try? DeviceLatency(json: entry) else { continue }
                    print("device \(l.device) latency: \(l.summary)")
                }
                // What the daemon did since it started, as it names it (counts a newer daemon adds show too).
                if case .object(let since)? = reply["activity"] {
                    print("since start: " + since.map { "\($0.0) \($0.1.numberValue.map { String(Int($0)) } ?? "?")" }
                        .joined(separator: ", "))
                }
                for entry in reply["actions"]?.arrayValue ?? [] {
                    guard let a = try? ActionStatus(json: entry) else { continue }
                    print("device \(a.device) action: \(a.summary)")
                }
            }
            return 0
        } catch {
            Log.error("pressurectl status: " + DaemonConnectionAdvice.explain(error, path: path, request: "status"))
            return 1
        }
    }
}
