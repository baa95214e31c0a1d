/// One action in force for a device, as `status` reports it to operators (`docs/actions.md`): the
/// gesture, what it does and where, as the configuration writes them, and the section it comes from.
/// Plain data: the daemon fills it from the configuration, `pressurectl status` decodes it. `does` is the
/// configuration's own text (`rightClick`, `key:Ctrl+C`), for people, not a name clients switch on.
public struct ActionStatus: Hashable, Sendable {
    public var device: Int
    /// `peek`, `pop` or `longPress`.
    public var gesture: String
    public var does: String
    /// Screen rectangles, `WIDTHxHEIGHT+X+Y`; empty: the whole screen.
    public var areas: [String]
    /// `[action] file:line`.
    public var source: String

    public init(device: Int, gesture: String, does: String, areas: [String] = [], source: String) {
        self.device = device
        self.gesture = gesture
        self.does = does
        self.areas = areas
        self.source = source
    }

    /// `{"device":1,"gesture":"pop","does":"rightClick","areas":[],"source":"[action] /etc/pressured/pressured.conf:7"}`;
    /// without `device` where `namingDevice` is false (a line about the device already).
    public func append(to out: inout [UInt8], namingDevice: Bool = true) {
        out.append(UInt8(ascii: "{"))
        if namingDevice {
            JSONWriter.appendKey("device", first: true, to: &out)
            JSONWriter.appendInteger(device, to: &out)
        }
        JSONWriter.appendKey("gesture", first: !namingDevice, to: &out)
        JSONWriter.appendString(gesture, to: &out)
        JSONWriter.appendKey("does", to: &out)
        JSONWriter.appendString(does, to: &out)
        JSONWriter.appendKey("areas", to: &out)
        JSONWriter.appendStrings(areas, to: &out)
        JSONWriter.appendKey("source", to: &out)
        JSONWriter.appendString(source, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// `pop → rightClick in 960x1080+0+0 ([action] file:line)`: one line for people.
    public var summary: String {
        "\(gesture) → \(does)" + (areas.isEmpty ? "" : " in " + areas.joined(separator: " ")) + " (\(source))"
    }
}

extension ActionStatus {
    /// Decodes one entry of a `status` reply's `actions`, as ``append(to:)`` writes it.
    public init(json: JSONValue) throws(MessageDecodingError) {
        try self.init(MessageFields(json, what: "an action"))
    }

    /// Keys it does not know are passed over.
    init(_ f: MessageFields) throws(MessageDecodingError) {
        self.init(
            device: try f.int("device"), gesture: try f.string("gesture"), does: try f.string("does"),
            areas: try f.strings("areas"), source: try f.string("source"))
    }
}
