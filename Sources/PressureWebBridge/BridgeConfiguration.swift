/// What `pressured-web` serves and whom it lets in (`docs/web.md`, "Configuration").
///
/// Defaults make a bridge that listens on `127.0.0.1:8765`, answers Host `localhost:8765` and
/// `127.0.0.1:8765`, lets in pages from its own origin (acting for no app, without control) and asks
/// for no token.
public struct BridgeConfiguration: Hashable, Sendable {
    /// Where to listen when systemd passes no socket.
    public var listen: [ListenAddress] = [ListenAddress(host: "127.0.0.1", port: 8765)]
    /// The daemon's socket; every WebSocket gets its own connection to it.
    public var daemonSocket = "/run/pressured/pressured.sock"
    /// `Host` values accepted (lowercase `name:port`); nil for those of the listening addresses.
    public var hosts: [String]? = nil
    /// Allowed page origins and the app each acts for; empty for the bridge's own origins only.
    public var origins: [OriginGrant] = []
    /// A secret a client must offer as the subprotocol `pressured-token.SECRET`; nil for none.
    public var token: String? = nil
    /// Whether a client that sends no `Origin` (not a browser) is let in (it still needs the token).
    public var allowWithoutOrigin = false
    /// The largest message a page may send, in bytes (larger ones close the WebSocket with 1009).
    public var maximumMessage = 64 * 1024
    /// Bytes queued for one browser before touches are dropped (half) and before it is disconnected.
    public var queueCapacity = 256 * 1024
    /// Seconds of silence before the bridge pings a browser; as long again without a pong closes it.
    public var pingIntervalSeconds = 30
    /// The folder of files served over plain HTTP (the JS module, the demo page); nil serves none.
    public var root: String? = "/usr/share/pressured/web"

    public init() {}

    /// The accepted `Host` values: as configured, else `localhost`, `127.0.0.1` and `[::1]` with each
    /// listening port (and the literal addresses listened on).
    public var acceptedHosts: [String] {
        if let hosts { return hosts }
        var out: [String] = []
        for a in listen {
            for name in ["localhost", "127.0.0.1", "[::1]", a.hostForURL] where !out.contains("\(name):\(a.port)") {
                out.append("\(name):\(a.port)")
            }
        }
        return out
    }

    /// The grant for a page's `Origin`: the configured one, or, with none configured, the bridge's own
    /// origins (`http://` + an accepted Host) acting for no app.
    public func grant(forOrigin origin: String) -> OriginGrant? {
        let o = origin.lowercased()
        if !origins.isEmpty { return origins.first { $0.origin == o } }
        return acceptedHosts.contains { "http://\($0)" == o } ? OriginGrant(origin: o, app: nil) : nil
    }
}

/// What pages from one origin may ask of the daemon through the bridge (`docs/web.md`, "Identity"). The
/// daemon sees every page as the bridge's own user, so this is what tells one origin's pages from
/// another's; the daemon then bounds the bridge's user as it bounds any client.
public struct OriginGrant: Hashable, Sendable {
    /// Lowercase, as browsers send it: `scheme://host[:port]`, or `null`.
    public var origin: String
    /// The app id its pages act as; nil for none (they may still use regions).
    public var app: String?
    /// Whether its pages' control requests (`set`, `reload`, `resetLearning`) are forwarded (`Control =
    /// on`); the daemon still decides by the bridge's identity (`ControlGroup`).
    public var mayControl: Bool

    public init(origin: String, app: String?, mayControl: Bool = false) {
        self.origin = origin.lowercased()
        self.app = app
        self.mayControl = mayControl
    }
}

/// A TCP address to listen on: an IPv4 or IPv6 literal and a port.
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    /// `127.0.0.1`, `::1`, `0.0.0.0`… (no brackets).
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    public var isIPv6: Bool { host.contains(":") }
    /// The host as it stands in a URL or a Host header (`[::1]`).
    public var hostForURL: String { isIPv6 ? "[\(host)]" : host }
    public var description: String { "\(hostForURL):\(port)" }

    /// `127.0.0.1:8765`, `[::1]:8765`; nil when it is neither.
    public init?(parsing text: String) {
        var host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }),
            let port = Int(portText), (1...65535).contains(port)
        else { return nil }
        self.init(host: String(host), port: port)
    }
}
