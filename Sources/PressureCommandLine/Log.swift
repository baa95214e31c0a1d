import Glibc

/// Log lines for journald: stderr, one line an event, with a syslog priority prefix (`<3>` error …
/// `<7>` debug) that journald turns into the level, and no timestamp (the journal adds one).
public enum Log {
    public enum Level: Int32, Comparable, Sendable {
        case error = 3, warning = 4, notice = 5, info = 6, debug = 7
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// Lines above this level are dropped. Set once at start-up (`--verbose` raises it to debug).
    nonisolated(unsafe) public static var threshold: Level = .info

    public static func write(_ level: Level, _ message: @autoclosure () -> String) {
        guard level <= threshold else { return }
        var line = "<\(level.rawValue)>" + message()
        // One event, one line: a newline inside a message would split it in the journal.
        if line.contains("\n") { line = line.split(separator: "\n").joined(separator: " ") }
        line += "\n"
        line.withCString { p in _ = Glibc.write(2, p, strlen(p)) }
    }

    /// Text for a person at a terminal (usage), written as it is.
    public static func plain(_ text: String) {
        let t = text.hasSuffix("\n") ? text : text + "\n"
        t.withCString { p in _ = Glibc.write(2, p, strlen(p)) }
    }

    public static func error(_ m: @autoclosure () -> String) { write(.error, m()) }
    public static func warning(_ m: @autoclosure () -> String) { write(.warning, m()) }
    public static func notice(_ m: @autoclosure () -> String) { write(.notice, m()) }
    public static func info(_ m: @autoclosure () -> String) { write(.info, m()) }
    public static func debug(_ m: @autoclosure () -> String) { write(.debug, m()) }
}
