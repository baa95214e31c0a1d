import Glibc
import PressureClient
import PressureCommandLine

/// `pressurectl metrics`: the running daemon's `status` as OpenMetrics text (`docs/metrics.md`), on
/// standard output or, with `--textfile DIR`, as `DIR/pressured.prom` replaced whole for node_exporter's
/// textfile collector (`systemd/pressured-metrics.timer` runs it every 15 s).
public enum MetricsTool {
    public static let usage = """
        usage: pressurectl metrics [--socket PATH] [--textfile DIR]
        Prints the running pressured's figures as OpenMetrics text: devices, clients, subscribers,
        contacts, regions, queued bytes, and per device the latency histograms of its frames (event time
        to queued for clients, and to written to every client). docs/metrics.md names every metric.
          --socket PATH    the daemon's socket (default $PRESSURED_SOCKET, else /run/pressured/pressured.sock)
          --textfile DIR   write DIR/\(fileName) instead (a temporary file in DIR, flushed, renamed over
                           it), for node_exporter's textfile collector; when the daemon cannot be reached
                           the file says pressured_up 0
        Exit status: 0 written, 1 the daemon could not be reached or answered badly, 2 bad usage,
        3 the file could not be written.
        """

    /// The file `--textfile` writes: node_exporter's collector reads `*.prom`.
    public static let fileName = "pressured.prom"

    /// Runs the command; returns the exit status (see ``usage``).
    public static func main(_ arguments: [String]) -> Int32 {
        switch DaemonToolOptions.parse(arguments, command: "metrics", usage: usage, flags: [], values: ["--textfile"]) {
        case .run(let o):
            return BlockingRun.run { [path = o.socketPath, dir = o.values["--textfile"]] in
                await metrics(path: path, textfile: dir)
            }
        case .exit(let status): return status
        }
    }

    static func metrics(path: String, textfile: String?) async -> Int32 {
        var status: Int32 = 0
        let text: String
        do throws(PressuredClientError) {
            text = try await render(path: path)
        } catch {
            Log.error("pressurectl metrics: " + DaemonConnectionAdvice.explain(error, path: path, request: "status"))
            status = 1
            guard textfile != nil else { return status }
            text = MetricsText.renderDown()
        }
        guard let dir = textfile else {
            print(text, terminator: "")
            return status
        }
        do throws(TextfileWriter.Failure) {
            try TextfileWriter.replace(directory: dir, name: fileName, with: text)
        } catch {
            Log.error("pressurectl metrics: \(error); --textfile needs a directory this user may write (node_exporter's --collector.textfile.directory)")
            return 3
        }
        return status
    }

    /// Asks the daemon for `status` and renders it.
    static func render(path: String) async throws(PressuredClientError) -> String {
        let connection = try await PressuredConnection.connect(path: path)
        defer { connection.close() }
        let reply = try await connection.request("status")
        let message: ServerMessage
        do throws(MessageDecodingError) { message = try ServerMessage(json: reply) } catch {
            throw .invalidMessage("status reply: \(error.message)")
        }
        guard case .reply(_, .status(let s, _, let latency, _, _)) = message else {
            throw .invalidMessage("the answer to status is not a status reply")
        }
        return MetricsText.render(s, latency: latency)
    }
}
