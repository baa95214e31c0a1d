/// Why a bridge configuration file was refused: the file, the line, and what was expected.
public struct BridgeConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }
}

/// Reads `/etc/pressured/web.conf` (`docs/web.md`, "Configuration"): the syntax of `pressured.conf`
/// (`[section]`, `Key = value`, `#` comments, case-sensitive keys, each at most once a section), with a
/// `[web]` section and one `[origin ORIGIN]` section per allowed page origin.
public enum BridgeConfigurationParser {
    static let webKeys = [
        "Listen", "Socket", "Host", "Token", "AllowWithoutOrigin", "MaximumMessage", "QueueBytes", "PingInterval", "Root",
    ]
    static let originKeys = ["App", "Control"]

    public static func parse(_ text: String, file: String) throws(BridgeConfigurationError) -> BridgeConfiguration {
        var config = BridgeConfiguration()
        var section: String? = nil
        var seen: [String: Int] = [:]
        var lineNumber = 0
        func fail(_ message: String) -> BridgeConfigurationError {
            BridgeConfigurationError(file: file, line: lineNumber, message: message)
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(raw)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let content = line.trimmingCharacters()
            guard !content.isEmpty else { continue }
            if content.hasPrefix("[") {
                guard content.hasSuffix("]") else { throw fail("section header '\(content)' has no closing ']'") }
                let title = String(content.dropFirst().dropLast()).trimmingCharacters()
                seen = [:]
                if title == "web" {
                    section = "web"
                } else if title.hasPrefix("origin ") {
                    let origin = String(title.dropFirst(7)).trimmingCharacters().lowercased()
                    guard isOrigin(origin) else {
                        throw fail("'\(origin)' is not an origin: expected scheme://host[:port] (no path) or null")
                    }
                    guard !config.origins.contains(where: { $0.origin == origin }) else { throw fail("origin \(origin) given twice") }
                    config.origins.append(OriginGrant(origin: origin, app: nil))
                    section = "origin"
                } else {
                    throw fail("unknown section [\(title)]: expected [web] or [origin ORIGIN]")
                }
                continue
            }
            guard let eq = content.firstIndex(of: "=") else { throw fail("expected 'Key = value' or a '[section]' header, found '\(content)'") }
            let key = String(content[..<eq]).trimmingCharacters()
            let value = String(content[content.index(after: eq)...]).trimmingCharacters()
            guard let section else { throw fail("\(key) is outside any section: expected [web] or [origin ORIGIN] first") }
            let known = section == "web" ? webKeys : originKeys
            guard known.contains(key) else {
                if section == "web" && (key == "Control" || key == "AllowControl") {
                    throw fail("\(key) is not a [web] key: control is granted per origin, Control = on in its [origin ORIGIN] section")
                }
                throw fail("unknown key \(key) in [\(section)\(section == "origin" ? " …" : "")]: expected one of \(known.joined(separator: ", "))")
            }
            if let first = seen[key] { throw fail("\(key) given twice in one section (first on line \(first))") }
            seen[key] = lineNumber
            guard !value.isEmpty else { throw fail("\(key) has no value") }
            if section == "origin" {
                let last = config.origins.count - 1
                if key == "Control" {
                    config.origins[last].mayControl = try bool(value, key, fail)
                } else {
                    guard isAppID(value) else { throw fail("App = \(value): expected an app id (letters, digits, '.', '-', '_')") }
                    config.origins[last].app = value
                }
                continue
            }
            switch key {
            case "Listen":
                var addresses: [ListenAddress] = []
                for word in value.split(separator: " ") {
                    guard let a = ListenAddress(parsing: String(word)) else {
                        throw fail("Listen = \(value): expected addresses like 127.0.0.1:8765 or [::1]:8765")
                    }
                    addresses.append(a)
                }
                config.listen = addresses
            case "Socket":
                guard value.hasPrefix("/") else { throw fail("Socket = \(value): expected an absolute path") }
                config.daemonSocket = value
            case "Host": config.hosts = value.split(separator: " ").map { $0.lowercased() }
            case "Token":
                guard value.utf8.count >= 16, value.utf8.allSatisfy(isTokenByte) else {
                    throw fail("Token: expected at least 16 characters of A-Z a-z 0-9 . _ ~ - (a subprotocol must be an HTTP token)")
                }
                config.token = value
            case "AllowWithoutOrigin": config.allowWithoutOrigin = try bool(value, key, fail)
            case "MaximumMessage": config.maximumMessage = try integer(value, key, 1024...(16 << 20), fail)
            case "QueueBytes": config.queueCapacity = try integer(value, key, (16 << 10)...(64 << 20), fail)
            case "PingInterval": config.pingIntervalSeconds = try integer(value, key, 1...3600, fail)
            case "Root": config.root = value == "none" ? nil : value
            default: break
            }
        }
        return config
    }

    static func bool(_ value: String, _ key: String, _ fail: (String) -> BridgeConfigurationError) throws(BridgeConfigurationError) -> Bool {
        switch value {
        case "on", "yes", "true": return true
        case "off", "no", "false": return false
        default: throw fail("\(key) = \(value): expected on or off")
        }
    }

    static func integer(
        _ value: String, _ key: String, _ range: ClosedRange<Int>, _ fail: (String) -> BridgeConfigurationError
    ) throws(BridgeConfigurationError) -> Int {
        guard let n = Int(value), range.contains(n) else {
            throw fail("\(key) = \(value): expected a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "-"):
            return true
        default: return false
        }
    }

    static func isAppID(_ s: String) -> Bool {
        s.utf8.count <= 256 && s.utf8.allSatisfy { isTokenByte($0) && $0 != UInt8(ascii: "~") }
    }

    /// `scheme://host[:port]` with nothing after, as browsers serialise an origin; or `null`.
    static func isOrigin(_ s: String) -> Bool {
        if s == "null" { return true }
        guard let colon = s.firstIndex(of: ":"), s[colon...].hasPrefix("://") else { return false }
        let scheme = s[..<colon], rest = s[s.index(colon, offsetBy: 3)...]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
            && !rest.isEmpty && !rest.contains("/") && !rest.contains("?") && !rest.contains("#") && !rest.contains(" ")
    }
}

extension StringProtocol {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
