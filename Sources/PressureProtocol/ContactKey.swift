/// A contact on a device: the device's id and the contact's number there, which together name one finger
/// wherever the daemon keeps track of it (what a client was sent of it, which region owns it, what a
/// client's full queue left out of it).
public struct ContactKey: Hashable, Sendable {
    public var device: Int
    public var contact: UInt64

    public init(device: Int, contact: UInt64) {
        self.device = device
        self.contact = contact
    }
}

extension PressureEvent {
    /// The contact the event is of.
    public var contactKey: ContactKey { ContactKey(device: device, contact: contact) }
}
