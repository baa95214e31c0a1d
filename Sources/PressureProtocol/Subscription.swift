/// What a client receives: which event kinds, from which devices.
public struct Subscription: Hashable, Sendable {
    /// Gesture events (`peek`, `pop`, …).
    public var gestures: Bool
    /// `touch` events.
    public var touches: Bool
    /// `device` `added`/`removed` events (`changed` goes to every client regardless).
    public var devices: Bool
    /// Device ids to receive events from; nil for all, including devices that appear later.
    public var deviceIDs: Set<Int>?
    /// The app this connection is (for quick actions registered by it and chosen for it).
    public var app: String? = nil

    /// The default is what `{"request":"subscribe"}` asks for: gestures from all devices.
    public init(gestures: Bool = true, touches: Bool = false, devices: Bool = false, deviceIDs: Set<Int>? = nil) {
        self.gestures = gestures
        self.touches = touches
        self.devices = devices
        self.deviceIDs = deviceIDs
    }

    /// A subscription to these kinds (a client's way of saying it).
    public init(events: Set<EventKind>, deviceIDs: Set<Int>? = nil) {
        self.init(
            gestures: events.contains(.gestures), touches: events.contains(.touches),
            devices: events.contains(.devices), deviceIDs: deviceIDs)
    }

    /// The kinds asked for.
    public var events: Set<EventKind> {
        Set(EventKind.allCases.filter(wants))
    }

    /// Whether events of `kind` are wanted.
    public func wants(_ kind: EventKind) -> Bool {
        switch kind {
        case .gestures: return gestures
        case .touches: return touches
        case .devices: return devices
        }
    }

    /// The `events` names, in the order `gestures`, `touches`, `devices`.
    public var eventNames: [String] {
        EventKind.allCases.filter(wants).map(\.rawValue)
    }

    /// Whether events from device `id` are wanted.
    ///
    /// Inlinable: the daemon asks it for every line and every client (`ClientTable`), and called across
    /// the module boundary it costs a copy of the subscription (its set and app name retained and
    /// released), a large share of what a line costs a client.
    @inlinable
    public func includes(device id: Int) -> Bool {
        deviceIDs?.contains(id) ?? true
    }
}

extension Subscription {
    /// `,"events":["gestures","touches"],"devices":"all"` (or `[1,2]`, in order): what a `subscribe`
    /// request and its reply both carry.
    func appendEventsAndDevices(to out: inout [UInt8]) {
        JSONWriter.appendKey("events", to: &out)
        JSONWriter.appendStrings(eventNames, to: &out)
        JSONWriter.appendKey("devices", to: &out)
        if let deviceIDs {
            JSONWriter.appendIntegers(deviceIDs.sorted(), to: &out)
        } else {
            out.append(contentsOf: #""all""#.utf8)
        }
    }

    /// The subscription a `subscribe` reply confirms (its `app` is not repeated there). Event kinds newer
    /// than this library are passed over.
    init(reply f: MessageFields) throws(MessageDecodingError) {
        self.init(events: Set(try f.strings("events").compactMap(EventKind.init(rawValue:))))
        let ids = try f.required("devices")
        if ids == .string("all") { return }
        guard let list = ids.arrayValue else { throw MessageDecodingError("'devices' must be \"all\" or a list of ids") }
        var set = Set<Int>()
        for id in list {
            guard let n = id.exactInteger else { throw MessageDecodingError("'devices' must hold device ids") }
            set.insert(n)
        }
        deviceIDs = set
    }
}
