/// The opening handshake (RFC 6455 §4.2), server side, kept apart from the frame codec: which requests
/// are upgrades, whether an upgrade is well-formed, and the `101` answer. Policy (Host, Origin, tokens)
/// is the caller's; this only knows the protocol.
public enum WebSocketHandshake {
    /// RFC 6455 §1.3's fixed GUID, appended to the key before hashing.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// A valid upgrade request's parts.
    public struct Upgrade: Hashable, Sendable {
        public var key: String
        /// `Sec-WebSocket-Protocol` elements, in the client's order of preference.
        public var protocols: [String]
        public var origin: String?
        public var host: String
    }

    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        case notGET(String)
        case notHTTP11
        case missingUpgradeToken
        case missingConnectionUpgrade
        /// Anything but 13: answered 426 with `Sec-WebSocket-Version: 13` (§4.4).
        case unsupportedVersion(String?)
        /// Missing, or not the base64 of 16 bytes.
        case invalidKey(String?)

        public var status: Int {
            switch self {
            case .notGET: return 405
            case .unsupportedVersion: return 426
            case .notHTTP11, .missingUpgradeToken, .missingConnectionUpgrade, .invalidKey: return 400
            }
        }

        public var description: String {
            switch self {
            case .notGET(let m): return "WebSocket upgrade with method \(m), not GET"
            case .notHTTP11: return "WebSocket upgrade needs HTTP/1.1"
            case .missingUpgradeToken: return "Upgrade does not name websocket"
            case .missingConnectionUpgrade: return "Connection does not include upgrade"
            case .unsupportedVersion(let v): return "Sec-WebSocket-Version \(v ?? "missing"), expected 13"
            case .invalidKey(let k): return "Sec-WebSocket-Key \(k.map { "'\($0.prefix(40))'" } ?? "missing") is not 16 bytes in base64"
            }
        }

        /// The response that refuses it.
        public var response: HTTPResponse {
            var fields: [HTTPRequestHead.Field] = []
            if case .unsupportedVersion = self { fields.append(.init(name: "Sec-WebSocket-Version", value: "13")) }
            if case .notGET = self { fields.append(.init(name: "Allow", value: "GET")) }
            return .plain(status, description, fields: fields)
        }
    }

    /// Whether the request asks for a WebSocket at all (so a plain GET can be told from a broken upgrade).
    public static func isUpgradeRequest(_ head: HTTPRequestHead) -> Bool {
        head.listElements("upgrade").contains { $0.lowercased() == "websocket" }
            || head.value("sec-websocket-key") != nil
    }

    /// Checks an upgrade request against §4.2.1.
    public static func validate(_ head: HTTPRequestHead) throws(Failure) -> Upgrade {
        guard head.method == "GET" else { throw .notGET(head.method) }
        guard head.version.major == 1, head.version.minor >= 1 else { throw .notHTTP11 }
        guard head.listElements("upgrade").contains(where: { $0.lowercased() == "websocket" }) else {
            throw .missingUpgradeToken
        }
        guard head.listElements("connection").contains(where: { $0.lowercased() == "upgrade" }) else {
            throw .missingConnectionUpgrade
        }
        let versions = head.values("sec-websocket-version")
        guard versions == ["13"] else { throw .unsupportedVersion(versions.first) }
        let keys = head.values("sec-websocket-key")
        guard keys.count == 1, let key = keys.first, Base64.decode(key)?.count == 16 else { throw .invalidKey(keys.first) }
        return Upgrade(
            key: key, protocols: head.listElements("sec-websocket-protocol"), origin: head.value("origin"),
            host: head.value("host") ?? "")
    }

    /// `Sec-WebSocket-Accept` for `key`: base64(SHA-1(key + GUID)).
    public static func acceptValue(forKey key: String) -> String {
        Base64.encode(SHA1.hash(Array((key + guid).utf8)))
    }

    /// The `101 Switching Protocols` answer, selecting `subprotocol` when given (it must be one the client
    /// offered).
    public static func response(for upgrade: Upgrade, subprotocol: String?) -> HTTPResponse {
        var fields: [HTTPRequestHead.Field] = [
            .init(name: "Upgrade", value: "websocket"), .init(name: "Connection", value: "Upgrade"),
            .init(name: "Sec-WebSocket-Accept", value: acceptValue(forKey: upgrade.key)),
        ]
        if let subprotocol { fields.append(.init(name: "Sec-WebSocket-Protocol", value: subprotocol)) }
        return HTTPResponse(status: 101, fields: fields)
    }
}
