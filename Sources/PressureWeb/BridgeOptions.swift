import PressureCommandLine
import PressureSystem
import PressureWebBridge

/// `pressured-web`'s command line; options override web.conf.
public struct BridgeOptions: Sendable {
    public static let defaultConfigPath = "/etc/pressured/web.conf"

    public var configPath: String? = nil
    public var listen: [ListenAddress] = []
    public var daemonSocket: String? = nil
    public var root: String? = nil
    public var verbose = false

    public static let usage = """
        usage: pressured-web [--config FILE] [--listen ADDRESS:PORT]... [--socket PATH] [--root DIR] [--verbose]

        Serves pressured's gestures to web pages over WebSocket (ws://HOST:PORT/pressured), one daemon
        connection per page, and the JS module and demo page over plain HTTP.

          --config FILE     web.conf (default /etc/pressured/web.conf where it exists)
          --listen ADDR     listen here instead of web.conf's Listen (repeatable; 127.0.0.1:8765, [::1]:8765);
                            ignored when systemd passes the sockets
          --socket PATH     the daemon's socket (default /run/pressured/pressured.sock)
          --root DIR        the folder served over HTTP (default /usr/share/pressured/web)
          --verbose         log every connection
        """

    public init() {}

    public init(arguments: [String]) throws(OptionReader.UsageError) {
        var r = OptionReader(arguments)
        verbose = r.flag("--verbose")
        configPath = try r.value("--config")
        for text in try r.values("--listen") {
            guard let a = ListenAddress(parsing: text) else {
                throw OptionReader.UsageError("--listen \(text): expected an address and port such as 127.0.0.1:8765 or [::1]:8765")
            }
            listen.append(a)
        }
        daemonSocket = try r.value("--socket")
        root = try r.value("--root")
        let rest = try r.finish()
        guard rest.isEmpty else { throw OptionReader.UsageError("unexpected argument \(rest[0])") }
    }

    func apply(to c: inout BridgeConfiguration) {
        if !listen.isEmpty { c.listen = listen }
        if let daemonSocket { c.daemonSocket = daemonSocket }
        if let root { c.root = root }
    }
}
