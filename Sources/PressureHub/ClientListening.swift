import PressureProtocol
import PressureCore

/// What a client is sent of the devices' events, as bits: read for every line and every client
/// (``LineFanout``), where reading the optional subscription's fields and switching over the standing
/// would cost a good part of each check. ``ClientTable/Client`` keeps it in step with its `subscription`
/// and `standing` through their observers, so no path that changes them can leave it stale.
struct ClientListening: OptionSet, Sendable {
    let rawValue: UInt8

    /// Open (``ClientStanding/open``) and subscribed to gestures.
    static let gestures = ClientListening(rawValue: 1)
    /// Open and subscribed to touches.
    static let touches = ClientListening(rawValue: 2)
    /// Subscribed to every device, those that appear later too (no device list).
    static let everyDevice = ClientListening(rawValue: 4)

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// A line to a device's subscribers goes only to open clients (``ClientStanding/receives(alone:answer:)``
    /// is true for a line not to one client alone only when open).
    init(_ subscription: Subscription?, _ standing: ClientStanding) {
        var bits: ClientListening = []
        // Field by field through the optional: binding the subscription would copy it (its set and app
        // name retained and released).
        let open = standing == .open
        if open && subscription?.gestures == true { bits.insert(.gestures) }
        if open && subscription?.touches == true { bits.insert(.touches) }
        if subscription != nil && subscription?.deviceIDs == nil { bits.insert(.everyDevice) }
        self = bits
    }
}
