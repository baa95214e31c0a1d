import PressureClient
import PressureCommandLine

/// The command line every tool that talks to the running daemon shares: `--help`, `--socket PATH`, flags
/// and options with a value of its own, and no arguments.
struct DaemonToolOptions {
    /// What to do after reading the command line.
    enum Parsed {
        case run(DaemonToolOptions)
        /// Help was printed (0) or the usage was wrong and said so (2).
        case exit(Int32)
    }

    /// The daemon's socket: `--socket`, else `$PRESSURED_SOCKET`, else the system one.
    var socketPath: String
    /// The tool's own flags that were given.
    var flags: Set<String>
    /// The tool's own options with a value that were given, by name.
    var values: [String: String] = [:]

    static func parse(
        _ arguments: [String], command: String, usage: String, flags known: [String], values knownValues: [String] = []
    ) -> Parsed {
        do {
            var options = OptionReader(arguments)
            if options.flag("-h") || options.flag("--help") {
                print(usage)
                return .exit(0)
            }
            var parsed = DaemonToolOptions(socketPath: PressuredConnection.environmentSocketPath, flags: [])
            for flag in known where options.flag(flag) { parsed.flags.insert(flag) }
            if let p = try options.value("--socket") { parsed.socketPath = p }
            for name in knownValues { parsed.values[name] = try options.value(name) }
            let rest = try options.finish()
            guard rest.isEmpty else { throw OptionReader.UsageError("unexpected argument '\(rest[0])'") }
            return .run(parsed)
        } catch {
            Log.error("pressurectl \(command): \(error)")
            Log.plain(usage)
            return .exit(2)
        }
    }
}
