import PressureCore

/// What a client receives after subscribing (`docs/protocol.md`), decoded. Lines this library does not
/// understand arrive as ``unknown(type:_:)`` rather than as errors: the protocol grows without a version
/// change, and clients ignore what they do not know.
public enum ClientEvent: Hashable, Sendable {
    /// `peek`, `pop`, `dismiss`, `quickActions`, `longPress`.
    case gesture(GestureEvent)
    /// A touch phase (subscribers to `touches`).
    case touch(TouchEvent)
    /// A device appeared, vanished, or changed its force capability (`changed` reaches every client).
    case device(change: ServerMessage.DeviceChange, PressuredDevice)
    /// The settings changed (`set`, `SIGHUP`).
    case settings(PublicSettings)
    /// Touch events the daemon dropped for this client since the last notice (it was reading too slowly).
    case dropped(touches: Int)
    /// The daemon is stopping; the connection ends after this.
    case bye(reason: String)
    /// A quick action the user chose for this connection's app (`subscribe` with `app`).
    case action(app: String, action: String)
    /// ``PressuredClient`` only: a new connection is up and subscribed. Devices and settings may differ from
    /// before, so re-read the capabilities in `Hello`.
    case reconnected(Hello)
    /// ``PressuredClient`` only: the connection ended and reconnection begins. Force is unknown until
    /// ``reconnected(_:)``.
    case disconnected(PressuredClientError)
    /// A line of a type this library does not know, or one whose fields it could not read: the `type`
    /// (empty when missing) and the whole object.
    case unknown(type: String, JSONValue)

    /// Decodes one daemon line (an object that is not a `hello`, `reply` or `error`).
    public init(_ value: JSONValue) {
        let type = value["type"]?.stringValue ?? ""
        do throws(DecodeFailure) {
            let f = try MessageFields(value, what: "an event")
            switch type {
            case "touch":
                self = .touch(try TouchEvent(f))
            case "device":
                let change = try f.enumeration("change", ServerMessage.DeviceChange.self)
                self = .device(change: change, try PressuredDevice(try f.object("device")))
            case "settings":
                self = .settings(try PublicSettings(try f.object("settings")))
            case "dropped":
                self = .dropped(touches: try f.int("touches"))
            case "bye":
                self = .bye(reason: (try? f.string("reason")) ?? "")
            case "action":
                self = .action(app: try f.string("app"), action: try f.string("action"))
            default:
                guard let kind = GestureKind(rawValue: type) else {
                    self = .unknown(type: type, value)
                    return
                }
                self = .gesture(try GestureEvent(kind: kind, f))
            }
        } catch {
            self = .unknown(type: type, value)
        }
    }
}

/// A gesture line: `{"type":"peek","time":…,"device":…,"contact":…,"x":…,"y":…,"force":…,"maximumPossibleForce":…}`.
public struct GestureEvent: Hashable, Sendable {
    public var kind: GestureKind
    /// The time of the input frame that crossed the threshold, on the input clock (microseconds exact).
    public var time: Timestamp
    /// The device, numbered from 1.
    public var device: Int
    /// The touch, stable for its whole life and never reused on that device.
    public var contact: Int
    /// Position in device units (ranges in ``PressuredDevice/x`` and ``PressuredDevice/y``).
    public var x: Int
    public var y: Int
    /// `UITouch.force`: 1.0 is an average touch; 0 where force is unavailable.
    public var force: Double
    /// `UITouch.maximumPossibleForce` for the device now; 0 where force is unavailable.
    public var maximumPossibleForce: Double
    /// Position on the screen in pixels (the device's screen geometry).
    public var screenX: Double = 0
    public var screenY: Double = 0
    /// The region this touch began in, when it belongs to one of this connection's regions.
    public var region: String? = nil
    /// For an icon's `quickActions`: the app and the items to draw.
    public var app: String? = nil
    public var items: [QuickActionItem]? = nil

    public init(
        kind: GestureKind, time: Timestamp, device: Int, contact: Int, x: Int, y: Int, force: Double,
        maximumPossibleForce: Double
    ) {
        self.kind = kind
        self.time = time
        self.device = device
        self.contact = contact
        self.x = x
        self.y = y
        self.force = force
        self.maximumPossibleForce = maximumPossibleForce
    }

    init(kind: GestureKind, _ f: MessageFields) throws(DecodeFailure) {
        self.init(
            kind: kind, time: try f.timestamp("time"), device: try f.int("device"), contact: try f.int("contact"),
            x: try f.int("x"), y: try f.int("y"), force: try f.double("force"),
            maximumPossibleForce: try f.double("maximumPossibleForce"))
        screenX = try f.optionalDouble("screenX") ?? 0
        screenY = try f.optionalDouble("screenY") ?? 0
        region = f.value["region"]?.stringValue
        app = f.value["app"]?.stringValue
        items = f.value["items"]?.arrayValue.map { list in
            list.compactMap { item -> QuickActionItem? in
                guard let id = item["id"]?.stringValue, let title = item["title"]?.stringValue else { return nil }
                return QuickActionItem(
                    id: id, title: title, subtitle: item["subtitle"]?.stringValue, icon: item["icon"]?.stringValue)
            }
        }
    }
}

/// A touch line: a ``GestureEvent``'s fields with a `phase` instead of a gesture kind, and `progress`.
public struct TouchEvent: Hashable, Sendable {
    public var phase: PressureEvent.TouchPhase
    public var time: Timestamp
    public var device: Int
    public var contact: Int
    public var x: Int
    public var y: Int
    public var force: Double
    public var maximumPossibleForce: Double
    /// Progress towards the next threshold (peek, then pop), 0…1, for animating a hint; nil past the last
    /// threshold and where force is unavailable.
    public var progress: Double?
    /// Position on the screen in pixels.
    public var screenX: Double = 0
    public var screenY: Double = 0

    public init(
        phase: PressureEvent.TouchPhase, time: Timestamp, device: Int, contact: Int, x: Int, y: Int, force: Double,
        maximumPossibleForce: Double, progress: Double? = nil
    ) {
        self.phase = phase
        self.time = time
        self.device = device
        self.contact = contact
        self.x = x
        self.y = y
        self.force = force
        self.maximumPossibleForce = maximumPossibleForce
        self.progress = progress
    }

    init(_ f: MessageFields) throws(DecodeFailure) {
        self.init(
            phase: try f.enumeration("phase", PressureEvent.TouchPhase.self), time: try f.timestamp("time"),
            device: try f.int("device"), contact: try f.int("contact"), x: try f.int("x"), y: try f.int("y"),
            force: try f.double("force"), maximumPossibleForce: try f.double("maximumPossibleForce"),
            progress: try f.optionalDouble("progress"))
        screenX = try f.optionalDouble("screenX") ?? 0
        screenY = try f.optionalDouble("screenY") ?? 0
    }
}

/// The event kinds a subscription can ask for.
public enum EventKind: String, Hashable, Sendable, CaseIterable {
    case gestures, touches, devices
}
