/// The files the bridge serves over plain HTTP, read once at start-up (so no request ever touches the
/// file system, and a path can never reach outside the folder): the JS module, its declarations, the
/// demo page, and whatever a kiosk puts beside them.
public struct StaticFiles: Hashable, Sendable {
    public struct File: Hashable, Sendable {
        public var contentType: String
        public var bytes: [UInt8]
    }

    /// By URL path (`/pressured.js`); `/` stands for `/index.html`.
    public private(set) var files: [String: File] = [:]

    public init() {}

    /// Adds a file found at `relativePath` (`demo/app.js`), typed by its extension; false for a path that
    /// may not be served (hidden parts, `..`, characters outside `A-Za-z0-9._-/`).
    @discardableResult
    public mutating func add(relativePath: String, bytes: [UInt8]) -> Bool {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.allSatisfy({ part in
            !part.isEmpty && part.first != "." && part.utf8.allSatisfy(Self.isPathByte)
        }) else { return false }
        files["/" + relativePath] = File(contentType: Self.contentType(relativePath), bytes: bytes)
        return true
    }

    public func file(at path: String) -> File? {
        files[path == "/" ? "/index.html" : path.hasSuffix("/") ? path + "index.html" : path]
    }

    static func isPathByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default: return false
        }
    }

    /// `text/javascript` for modules (the type browsers require for `import`), and the usual few others.
    static func contentType(_ path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "ts": return "text/plain; charset=utf-8"  // .d.ts: for reading, never executed
        case "css": return "text/css; charset=utf-8"
        case "json": return "application/json"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "txt", "md": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }
}
