/// The head of an HTTP/1.1 request (RFC 9112 §2–5): request line and header fields, parsed strictly from
/// bytes that may still be arriving. Only what a WebSocket upgrade and a static file need: no bodies, no
/// chunking, no obsolete line folding.
public struct HTTPRequestHead: Hashable, Sendable {
    public var method: String
    /// The request target as sent (origin-form: `/path?query`).
    public var target: String
    /// `1.0` or `1.1` as (major, minor).
    public var version: HTTPVersion
    /// Field names as sent, values with surrounding whitespace removed, in order.
    public var fields: [Field]

    public struct HTTPVersion: Hashable, Sendable {
        public var major: Int
        public var minor: Int
        public init(major: Int, minor: Int) {
            self.major = major
            self.minor = minor
        }
    }

    public struct Field: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public init(method: String, target: String, version: HTTPVersion, fields: [Field]) {
        self.method = method
        self.target = target
        self.version = version
        self.fields = fields
    }

    /// Every value of the fields named `name` (case-insensitive), in order.
    public func values(_ name: String) -> [String] {
        let lower = name.lowercased()
        return fields.filter { $0.name.lowercased() == lower }.map(\.value)
    }

    /// The value of a field that must appear at most once; nil when absent.
    public func value(_ name: String) -> String? { values(name).first }

    /// The comma-separated elements of every `name` field (RFC 9110 §5.6.1), trimmed, empty ones dropped.
    public func listElements(_ name: String) -> [String] {
        values(name).flatMap { $0.split(separator: ",") }
            .map { String($0).trimmingHTTPWhitespace() }
            .filter { !$0.isEmpty }
    }

    /// The path of the target without its query.
    public var path: String {
        String(target.prefix { $0 != "?" && $0 != "#" })
    }
}

/// Why a request head was refused, with the status to answer it with.
public enum HTTPRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Longer than the limit before its blank line (431).
    case headTooLarge(limit: Int)
    case malformedRequestLine
    /// Not HTTP/1.x (505).
    case unsupportedVersion(String)
    case malformedField(String)
    /// A line starting with whitespace: obsolete folding (RFC 9112 §5.2 allows refusing it).
    case obsoleteLineFolding
    /// `Host` missing or given twice (RFC 9112 §3.2: 400).
    case badHost
    /// A request with a body (`Content-Length` other than 0, or `Transfer-Encoding`): nothing here takes one.
    case bodyNotAccepted

    public var status: Int {
        switch self {
        case .headTooLarge: return 431
        case .unsupportedVersion: return 505
        case .bodyNotAccepted: return 413
        case .malformedRequestLine, .malformedField, .obsoleteLineFolding, .badHost: return 400
        }
    }

    public var description: String {
        switch self {
        case .headTooLarge(let limit): return "request head over \(limit) bytes"
        case .malformedRequestLine: return "malformed request line"
        case .unsupportedVersion(let v): return "unsupported HTTP version \(v)"
        case .malformedField(let line): return "malformed header field '\(line.prefix(40))'"
        case .obsoleteLineFolding: return "obsolete header line folding"
        case .badHost: return "Host missing or repeated"
        case .bodyNotAccepted: return "request bodies are not accepted"
        }
    }
}

extension HTTPRequestHead {
    /// Parses the head at the start of `bytes`: nil while its blank line has not arrived (and the limit is
    /// not reached), else the head and how many bytes it took. Lines end in CRLF; a bare LF is accepted
    /// as RFC 9112 §2.2 allows.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) throws(HTTPRequestError)
        -> (head: HTTPRequestHead, length: Int)?
    {
        guard let end = headEnd(bytes) else {
            if bytes.count >= limit { throw .headTooLarge(limit: limit) }
            return nil
        }
        guard end.length <= limit else { throw .headTooLarge(limit: limit) }
        // Split as bytes: in a Swift String "\r\n" is one Character and would not split at "\n".
        var lines: [Substring] = []
        for line in bytes[0..<end.headerEnd].split(separator: 0x0A, omittingEmptySubsequences: false) {
            let content = line.last == 0x0D ? line.dropLast() : line
            lines.append(Substring(String(decoding: UnsafeBufferPointer(rebasing: content), as: UTF8.self)))
        }
        guard let requestLine = lines.first else { throw .malformedRequestLine }
        var head = try parseRequestLine(requestLine)
        for line in lines.dropFirst() {
            guard let first = line.first else { continue }
            if first == " " || first == "\t" { throw .obsoleteLineFolding }
            head.fields.append(try parseField(line))
        }
        guard head.values("host").count == 1 else { throw .badHost }
        if !head.values("transfer-encoding").isEmpty { throw .bodyNotAccepted }
        if let length = head.value("content-length"), length != "0" { throw .bodyNotAccepted }
        return (head, end.length)
    }

    /// Where the head ends: the index of its blank line and the length including it.
    private static func headEnd(_ b: UnsafeBufferPointer<UInt8>) -> (headerEnd: Int, length: Int)? {
        var i = 0
        while i < b.count {
            if b[i] == 0x0A {
                // "\n\n" or "\n\r\n": the line just ended was the last one.
                if i + 1 < b.count && b[i + 1] == 0x0A { return (i, i + 2) }
                if i + 2 < b.count && b[i + 1] == 0x0D && b[i + 2] == 0x0A { return (i, i + 3) }
            }
            i += 1
        }
        return nil
    }

    private static func parseRequestLine(_ line: Substring) throws(HTTPRequestError) -> HTTPRequestHead {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter),
            parts[1].first == "/", parts[1].allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "\u{7F}" && ($0.asciiValue ?? 0) > 0x20 })
        else { throw .malformedRequestLine }
        let version = parts[2]
        guard version.hasPrefix("HTTP/"), version.count == 8 else { throw .malformedRequestLine }
        let digits = Array(version.dropFirst(5))
        guard digits[1] == ".", let major = digits[0].wholeNumberValue, let minor = digits[2].wholeNumberValue else {
            throw .malformedRequestLine
        }
        guard major == 1 else { throw .unsupportedVersion(String(version)) }
        return HTTPRequestHead(
            method: String(parts[0]), target: String(parts[1]), version: HTTPVersion(major: major, minor: minor), fields: [])
    }

    private static func parseField(_ line: Substring) throws(HTTPRequestError) -> Field {
        guard let colon = line.firstIndex(of: ":") else { throw .malformedField(String(line)) }
        let name = line[..<colon]
        // No whitespace between name and colon (RFC 9112 §5.1: must be rejected).
        guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else { throw .malformedField(String(line)) }
        let value = String(line[line.index(after: colon)...]).trimmingHTTPWhitespace()
        // Control characters other than tab have no place in a field value.
        guard value.unicodeScalars.allSatisfy({ $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7F) }) else {
            throw .malformedField(String(line))
        }
        return Field(name: String(name), value: value)
    }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenCharacter(_ c: Character) -> Bool {
        guard let a = c.asciiValue else { return false }
        switch a {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(a)
        }
    }
}

extension String {
    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingHTTPWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return String(s)
    }
}
