import PressureProtocol

/// What a client receives after subscribing (`docs/protocol.md`), decoded into the protocol's own types,
/// the ones the daemon encodes. Lines this library does not understand arrive as ``unknown(type:_:)``
/// rather than as errors: the protocol grows without a version change, and clients ignore what they do
/// not know.
public enum ClientEvent: Hashable, Sendable {
    /// `peek`, `pop`, `dismiss`, `quickActions`, `longPress` (``PressureEvent/gesture``); `tags` when the
    /// touch began in one of this connection's regions. `synthesized`: a `dismiss` this library made for a
    /// peek still open when the connection ended (the daemon killed sends none; never on the wire).
    case gesture(PressureEvent, tags: RegionTags? = nil, synthesized: Bool = false)
    /// A touch phase (subscribers to `touches`; ``PressureEvent/phase``). Touches are never tagged with a
    /// region, not even for their region's owner. `synthesized`: a `cancelled` this library made for a
    /// contact still open when the connection ended (never on the wire).
    case touch(PressureEvent, synthesized: Bool = false)
    /// A device appeared, vanished, or changed its force capability (`changed` reaches every client).
    case device(change: ServerMessage.DeviceChange, DeviceInfo)
    /// The settings changed (`set`, `SIGHUP`).
    case settings(PublicSettings)
    /// Touch events the daemon left out for this client since the last notice (it was reading too slowly),
    /// and which contacts they were of: only `moved` events, replaced by a newer state.
    case dropped(DroppedTouches)
    /// The daemon is stopping; the connection ends after this.
    case bye(reason: String)
    /// A quick action the user chose for this connection's app (`subscribe` with `app`).
    case action(app: String, action: String)
    /// ``PressuredClient`` only: a new connection is up and subscribed. Devices and settings may differ from
    /// before, so re-read the capabilities in `Hello`.
    case reconnected(Hello)
    /// ``PressuredClient`` only: the connection ended and reconnection begins, after the synthesized ends
    /// of the peeks and contacts it left open. The error says how it ended: ``PressuredClientError/
    /// connectionLost(_:)`` when not cleanly (no `bye`: the daemon was killed or crashed), a fatal
    /// ``PressuredClientError/daemon(code:message:fatal:)``, or ``PressuredClientError/disconnected(_:)``
    /// after `bye`. Force is unknown until ``reconnected(_:)``.
    case disconnected(PressuredClientError)
    /// A line of a type this library does not know, or one whose fields it could not read: the `type`
    /// (empty when missing) and the whole object.
    case unknown(type: String, JSONValue)

    /// Whether this library made the event rather than the daemon: the end of a peek or contact that the
    /// connection's end left open (`docs/protocol.md`, "When the connection ends").
    public var isSynthesized: Bool {
        switch self {
        case .gesture(_, _, let synthesized), .touch(_, let synthesized): return synthesized
        case .device, .settings, .dropped, .bye, .action, .reconnected, .disconnected, .unknown: return false
        }
    }

    /// Decodes one daemon line (an object that is not a `hello`, `reply` or `error`).
    public init(_ value: JSONValue) {
        let type = value["type"]?.stringValue ?? ""
        if type == "touch" || GestureKind(rawValue: type) != nil {
            do throws(MessageDecodingError) {
                let event = try PressureEvent(json: value)
                self = event.gesture == nil ? .touch(event) : .gesture(event, tags: try RegionTags(json: value))
            } catch {
                self = .unknown(type: type, value)
            }
            return
        }
        switch try? ServerMessage(json: value) {
        case .device(let change, let device): self = .device(change: change, device)
        case .settings(let settings): self = .settings(settings)
        case .dropped(let dropped): self = .dropped(dropped)
        case .bye(let reason): self = .bye(reason: reason)
        case .action(let app, let action): self = .action(app: app, action: action)
        case .hello, .reply, .error, .regionReply, nil: self = .unknown(type: type, value)
        }
    }
}
