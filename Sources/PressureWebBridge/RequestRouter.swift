import PressureWebSocket

/// What the bridge does with one HTTP request head: refuse it (`403`; the reason goes to the log, the
/// page is told only "forbidden"), answer it from ``StaticFiles``, or upgrade it to a WebSocket. The
/// checks, in order (why each: `docs/web.md`, "Security model"):
/// 1. `Host` must be one the bridge answers to (DNS rebinding); for every request.
/// 2. For an upgrade: `Origin` must be allowed; a request without one only with `AllowWithoutOrigin`.
/// 3. The token, when configured, must be offered as the subprotocol `pressured-token.SECRET`.
public struct RequestRouter: Sendable {
    public let configuration: BridgeConfiguration
    public let files: StaticFiles
    /// The subprotocol the JS module offers, selected whenever offered.
    public static let subprotocol = "pressured.v1"
    public static let tokenPrefix = "pressured-token."
    /// The path WebSockets connect to.
    public static let webSocketPath = "/pressured"

    public init(configuration: BridgeConfiguration, files: StaticFiles) {
        self.configuration = configuration
        self.files = files
    }

    public enum Decision: Hashable, Sendable {
        /// Answer and close the connection; `log` says why when it is a refusal worth a line.
        case respond(HTTPResponse, includeBody: Bool, log: String?)
        /// Connect to the daemon for this page, then answer with `response` (101).
        case upgrade(response: HTTPResponse, grant: OriginGrant)
    }

    public func decide(_ head: HTTPRequestHead) -> Decision {
        let host = head.value("host")?.lowercased() ?? ""
        guard configuration.acceptedHosts.contains(host) else {
            return refuse("Host '\(host.prefix(80))' is not one this bridge answers to (Host in web.conf)")
        }
        if WebSocketHandshake.isUpgradeRequest(head) { return upgrade(head) }
        guard head.method == "GET" || head.method == "HEAD" else {
            return .respond(
                .plain(405, "only GET and HEAD", fields: [.init(name: "Allow", value: "GET, HEAD")]), includeBody: true, log: nil)
        }
        let path = head.path
        if path == Self.webSocketPath {
            return .respond(.plain(426, "connect with a WebSocket", fields: [.init(name: "Upgrade", value: "websocket")]),
                            includeBody: head.method == "GET", log: nil)
        }
        guard let file = files.file(at: path) else {
            return .respond(.plain(404, "no such file"), includeBody: head.method == "GET", log: nil)
        }
        var fields: [HTTPRequestHead.Field] = [
            .init(name: "Content-Type", value: file.contentType), .init(name: "Cache-Control", value: "no-cache"),
            .init(name: "X-Content-Type-Options", value: "nosniff"),
        ]
        // A kiosk app served from another allowed origin may import the module from here.
        if let origin = head.value("origin"), configuration.grant(forOrigin: origin) != nil {
            fields.append(.init(name: "Access-Control-Allow-Origin", value: origin))
            fields.append(.init(name: "Vary", value: "Origin"))
        }
        return .respond(HTTPResponse(status: 200, fields: fields, body: file.bytes), includeBody: head.method == "GET", log: nil)
    }

    private func upgrade(_ head: HTTPRequestHead) -> Decision {
        let upgrade: WebSocketHandshake.Upgrade
        do { upgrade = try WebSocketHandshake.validate(head) } catch {
            return .respond(error.response, includeBody: true, log: "bad WebSocket handshake: \(error)")
        }
        guard head.path == Self.webSocketPath else {
            return .respond(.plain(404, "WebSockets connect to \(Self.webSocketPath)"), includeBody: true, log: nil)
        }
        let grant: OriginGrant
        if let origin = upgrade.origin {
            guard let g = configuration.grant(forOrigin: origin) else {
                return refuse("Origin '\(origin.prefix(80))' is not allowed (an [origin] section in web.conf)")
            }
            grant = g
        } else {
            guard configuration.allowWithoutOrigin else {
                return refuse("no Origin (not a browser) and AllowWithoutOrigin is off")
            }
            grant = OriginGrant(origin: "none", app: nil)
        }
        if let token = configuration.token {
            let offered = upgrade.protocols.filter { $0.hasPrefix(Self.tokenPrefix) }.map { String($0.dropFirst(Self.tokenPrefix.count)) }
            guard offered.contains(where: { Self.constantTimeEqual($0, token) }) else {
                return refuse(offered.isEmpty ? "no token offered (Token is set)" : "wrong token from Origin '\(grant.origin)'")
            }
        }
        // Never echo the token back: select the plain subprotocol when offered.
        let selected = upgrade.protocols.contains(Self.subprotocol) ? Self.subprotocol : nil
        return .upgrade(response: WebSocketHandshake.response(for: upgrade, subprotocol: selected), grant: grant)
    }

    private func refuse(_ reason: String) -> Decision {
        .respond(.plain(403, "forbidden"), includeBody: true, log: reason)
    }

    /// Compares without stopping at the first difference, so timing does not tell how much of a guess was right.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }
}
