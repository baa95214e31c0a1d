/// A contact as one client's stream names it: a client hears several devices, and a contact id is unique
/// on its device only.
public struct WireContact: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var device: Int
    public var contact: UInt64

    public init(device: Int, contact: UInt64) {
        self.device = device
        self.contact = contact
    }

    public static func < (a: WireContact, b: WireContact) -> Bool {
        (a.device, a.contact) < (b.device, b.contact)
    }

    /// `device:contact`, as the daemon's log and `pressurectl monitor` write it.
    public var description: String { "\(device):\(contact)" }
}
