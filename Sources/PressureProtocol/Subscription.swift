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

    /// The `events` names, in the order `gestures`, `touches`, `devices`.
    public var eventNames: [String] {
        var names: [String] = []
        if gestures { names.append("gestures") }
        if touches { names.append("touches") }
        if devices { names.append("devices") }
        return names
    }

    /// Whether events from device `id` are wanted.
    public func includes(device id: Int) -> Bool {
        deviceIDs?.contains(id) ?? true
    }
}
