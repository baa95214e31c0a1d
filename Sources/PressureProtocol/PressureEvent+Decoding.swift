extension PressureEvent {
    /// Decodes a gesture or `touch` line as ``WireFormat`` writes it (a routed gesture's ``RegionTags``
    /// are read apart). `screenX`/`screenY` may be missing (older daemons): 0 then.
    public init(json: JSONValue) throws(MessageDecodingError) {
        try self.init(MessageFields(json, what: "an event"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        let type = try f.string("type")
        let kind: Kind
        if type == "touch" {
            kind = .touch(try f.enumeration("phase", TouchPhase.self))
        } else if let gesture = GestureKind(rawValue: type) {
            kind = .gesture(gesture)
        } else {
            throw MessageDecodingError("\"\(type)\" is not a gesture or touch event")
        }
        self.init(
            kind: kind, time: try f.timestamp("time"), device: try f.int("device"),
            contact: try f.integer("contact", as: UInt64.self), x: try f.integer("x", as: Int32.self),
            y: try f.integer("y", as: Int32.self), screenX: try f.optionalDouble("screenX") ?? 0,
            screenY: try f.optionalDouble("screenY") ?? 0, force: try f.double("force"),
            maximumPossibleForce: try f.double("maximumPossibleForce"), progress: try f.optionalDouble("progress"))
    }
}
