/// The settings apps see (`hello`, `settings` events, `set` and `reload` replies).
public struct PublicSettings: Hashable, Sendable {
    public var forceTouch: Bool
    public var sensitivity: Sensitivity

    public init(forceTouch: Bool, sensitivity: Sensitivity) {
        self.forceTouch = forceTouch
        self.sensitivity = sensitivity
    }
}

extension PublicSettings {
    /// `{"forceTouch":true,"sensitivity":"medium"}`
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"forceTouch":"#.utf8)
        JSONWriter.appendBool(forceTouch, to: &out)
        JSONWriter.appendKey("sensitivity", to: &out)
        JSONWriter.appendString(sensitivity.rawValue, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Decodes the settings object of `hello`, `settings` events and `set`/`reload` replies.
    public init(json: JSONValue) throws(MessageDecodingError) {
        try self.init(MessageFields(json, what: "the settings"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        self.init(forceTouch: try f.bool("forceTouch"), sensitivity: try f.enumeration("sensitivity", Sensitivity.self))
    }
}
