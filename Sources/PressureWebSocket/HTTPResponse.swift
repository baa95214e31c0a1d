/// An HTTP/1.1 response head and body, as bytes to send. Every response but `101` closes the
/// connection (`Connection: close`): the bridge serves one request per connection and keeps no idle
/// keep-alive sockets.
public struct HTTPResponse: Hashable, Sendable {
    public var status: Int
    public var fields: [HTTPRequestHead.Field]
    public var body: [UInt8]

    public init(status: Int, fields: [HTTPRequestHead.Field] = [], body: [UInt8] = []) {
        self.status = status
        self.fields = fields
        self.body = body
    }

    /// A short plain-text response for a refusal or error: the status line's reason, then `detail`.
    public static func plain(_ status: Int, _ detail: String, fields: [HTTPRequestHead.Field] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, fields: fields + [.init(name: "Content-Type", value: "text/plain; charset=utf-8")],
            body: Array("\(status) \(reasonPhrase(status)): \(detail)\n".utf8))
    }

    /// The bytes on the wire. `includeBody` false for `HEAD`.
    public func serialized(includeBody: Bool = true) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for f in fields { text += "\(f.name): \(f.value)\r\n" }
        if status != 101 {
            text += "Content-Length: \(body.count)\r\nConnection: close\r\n"
        }
        text += "\r\n"
        var out = Array(text.utf8)
        if includeBody && status != 101 { out.append(contentsOf: body) }
        return out
    }

    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 426: return "Upgrade Required"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status \(status)"
        }
    }
}
