import Glibc
import PressureClient
import PressureCommandLine

/// `pressurectl monitor`: connects to the running daemon, subscribes, and prints what apps receive, as
/// it happens: readable lines, or with `--json` every line the daemon sends exactly as sent.
public enum MonitorTool {
    public static let usage = """
        usage: pressurectl monitor [--socket PATH] [--touches] [--json]
          --socket PATH   the daemon's socket (default $PRESSURED_SOCKET, else /run/pressured/pressured.sock)
          --touches       touch phases too, not only gestures and device changes
          --json          print every line the daemon sends (hello and replies included), exactly as sent
        """

    /// Runs the command; returns the exit status: 0 after the daemon's `bye`, 1 when it cannot connect
    /// or the connection breaks, 2 for bad usage.
    public static func main(_ arguments: [String]) -> Int32 {
        let options: DaemonToolOptions
        switch DaemonToolOptions.parse(arguments, command: "monitor", usage: usage, flags: ["--touches", "--json"]) {
        case .run(let o): options = o
        case .exit(let status): return status
        }
        let path = options.socketPath
        let json = options.flags.contains("--json")
        var events: Set<EventKind> = [.gestures, .devices]
        if options.flags.contains("--touches") { events.insert(.touches) }
        return BlockingRun.run { [path, events] in await monitor(path: path, events: events, json: json) }
    }

    static func monitor(path: String, events: Set<EventKind>, json: Bool) async -> Int32 {
        // With --json the reading thread prints each line as it arrives, before decoding, so the output is
        // byte for byte what the daemon sent; the loop below then only watches for the end.
        let onLine: (@Sendable ([UInt8]) -> Void)? = json ? { @Sendable line in writeOut(line + [0x0A]) } : nil
        let connection: PressuredConnection
        do {
            connection = try await PressuredConnection.connect(path: path, onLine: onLine)
        } catch {
            Log.error("pressurectl monitor: \(error); is pressured running?")
            return 1
        }
        if !json {
            for line in MonitorFormat.hello(connection.hello, path: path) { printLine(line) }
        }
        do {
            try await connection.subscribe(events: events)
            for try await event in connection.events {
                if !json { printLine(MonitorFormat.line(event)) }
                if case .bye = event { return 0 }
            }
            Log.error("pressurectl monitor: the daemon closed the connection")
            return 1
        } catch {
            Log.error("pressurectl monitor: \(error)")
            return 1
        }
    }

    static func printLine(_ line: String) { writeOut(Array((line + "\n").utf8)) }

    /// Unbuffered: one `write` a line, so a line shows at once even when stdout is a pipe or a file.
    static func writeOut(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(1, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}
