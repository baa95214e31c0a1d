/// An `error` the daemon sends a client (`docs/protocol.md`, "Errors"): the code, a message for humans,
/// the `id` of the request it answers, and whether the connection is closed after it.
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The `error` field. Raw values are the wire strings.
    public enum Code: String, CaseIterable, Sendable {
        /// The line is not a JSON object (binary garbage included).
        case invalidJSON = "invalid-json"
        /// `request` missing, not a string, or not known.
        case unknownRequest = "unknown-request"
        /// A field has the wrong type or value.
        case invalidArgument = "invalid-argument"
        /// A request the peer may not make: control from a peer that is neither root nor in the control
        /// group; being, or choosing for, an app the configuration closes to it.
        case notPermitted = "not-permitted"
        /// A request line over ``ClientRequest/maximumLineLength`` bytes.
        case lineTooLong = "line-too-long"
        /// ``ProtocolError/maximumErrors`` errors in a row on one connection.
        case tooManyErrors = "too-many-errors"
        /// The client stopped reading and a gesture or device event no longer fits its queue.
        case tooSlow = "too-slow"
        /// `reload` found a configuration file it could not use; the old configuration stays.
        case reloadFailed = "reload-failed"
        /// The daemon serves as many clients as it may (`MaxClients`), or has no file descriptor left for
        /// another: sent instead of `hello` to the connection it turns away.
        case tooManyClients = "too-many-clients"

        /// Whether the daemon disconnects after this error (the doc's "then" column).
        public var isFatal: Bool {
            switch self {
            case .invalidJSON, .unknownRequest, .invalidArgument, .notPermitted, .reloadFailed: return false
            case .lineTooLong, .tooManyErrors, .tooSlow, .tooManyClients: return true
            }
        }
    }

    /// After this many errors in a row on one connection (a request answered without an error starts the
    /// count again) the daemon sends `too-many-errors` and disconnects.
    public static let maximumErrors = 100

    /// The request's `id`, when the line was a JSON object that had one (`null` is an id like any other).
    public var id: JSONValue?
    public var code: Code
    public var message: String
    /// Sent as `"fatal":true`; the connection is closed after the error.
    public var fatal: Bool

    /// An error; `fatal` defaults to what the code implies.
    public init(id: JSONValue? = nil, code: Code, message: String, fatal: Bool? = nil) {
        self.id = id
        self.code = code
        self.message = message
        self.fatal = fatal ?? code.isFatal
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// A control request (`set`, `reload`, `resetLearning`) from a peer without control rights.
    public static func notPermitted(id: JSONValue?, request: String) -> ProtocolError {
        ProtocolError(
            id: id, code: .notPermitted,
            message: "'\(request)' needs root, the daemon's user or membership of the control group (ControlGroup)")
    }

    /// A line longer than `limit` bytes (fatal).
    public static func lineTooLong(limit: Int = ClientRequest.maximumLineLength) -> ProtocolError {
        ProtocolError(code: .lineTooLong, message: "request line longer than \(limit) bytes")
    }

    /// The error budget is spent (fatal).
    public static func tooManyErrors(_ count: Int = maximumErrors) -> ProtocolError {
        ProtocolError(code: .tooManyErrors, message: "\(count) errors in a row on this connection")
    }

    /// A newcomer turned away (fatal): `why` says what is full (`MaxClients`, or the descriptors).
    public static func tooManyClients(_ why: String) -> ProtocolError {
        ProtocolError(code: .tooManyClients, message: why + "; the clients connected are served, try again later")
    }

    /// The client's queue cannot take a gesture or device event (fatal).
    public static let tooSlow = ProtocolError(
        code: .tooSlow, message: "the client stopped reading and an event no longer fits its queue")
}

extension ProtocolError {
    /// An `error` line's fields: `id` as sent (absent is nil, `null` is `.null`), a code this library
    /// knows, the message, `fatal` (absent is false).
    init(_ f: MessageFields) throws(MessageDecodingError) {
        self.init(
            id: f.raw("id"), code: try f.enumeration("error", Code.self), message: try f.string("message"),
            fatal: try f.raw("fatal").map { v throws(MessageDecodingError) in
                guard let b = v.boolValue else { throw MessageDecodingError("'fatal' must be a boolean") }
                return b
            } ?? false)
    }
}
