/// The settings apps see (`hello`, `settings` events, `set` and `reload` replies).
public struct PublicSettings: Hashable, Sendable {
    public var forceTouch: Bool
    public var sensitivity: Sensitivity
    /// Whether the daemon plays haptic effects on gestures (an app that plays its own may want to know).
    public var haptics: Bool

    public init(forceTouch: Bool, sensitivity: Sensitivity, haptics: Bool = true) {
        self.forceTouch = forceTouch
        self.sensitivity = sensitivity
        self.haptics = haptics
    }
}

extension PublicSettings {
    /// `{"forceTouch":true,"sensitivity":"medium","haptics":true}`
    public func append(to out: inout [UInt8]) {
        out.append(contentsOf: #"{"forceTouch":"#.utf8)
        JSONWriter.appendBool(forceTouch, to: &out)
        JSONWriter.appendKey("sensitivity", to: &out)
        JSONWriter.appendString(sensitivity.rawValue, to: &out)
        JSONWriter.appendKey("haptics", to: &out)
        JSONWriter.appendBool(haptics, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Decodes the settings object of `hello`, `settings` events and `set`/`reload` replies.
    public init(json: JSONValue) throws(MessageDecodingError) {
        try self.init(MessageFields(json, what: "the settings"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        // `haptics` is optional: a daemon without haptics sends none, and plays none.
        self.init(
            forceTouch: try f.bool("forceTouch"), sensitivity: try f.enumeration("sensitivity", Sensitivity.self),
            haptics: try f.optionalBool("haptics") ?? false)
    }
}
