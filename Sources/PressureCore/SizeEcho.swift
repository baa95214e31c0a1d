/// How one contact's `ABS_MT_PRESSURE` stood to its `ABS_MT_TOUCH_MAJOR`, from what the device sent. Some
/// panels (the ASUS TF201) send the contact's size as its pressure: both axes on every frame, always equal,
/// so "pressure" only grows with a flatter finger and carries no force. The tracker moves a contact's echo
/// on once per frame (``seeing(pressureSent:majorSent:pressure:major:)``), and the learner tells such a
/// panel by its ordinary contacts (``ForceUnavailableReason/pressureIsSize``).
///
/// | state \ frame | neither axis sent | both sent, equal | both sent, apart | one sent, now equal | one sent, now apart |
/// |---------------|-------------------|------------------|------------------|---------------------|---------------------|
/// | unseen        | unseen            | echoed           | distinct         | unseen              | distinct            |
/// | echoed        | echoed            | echoed           | distinct         | echoed              | distinct            |
/// | distinct      | distinct          | distinct         | distinct         | distinct            | distinct            |
///
/// Only a frame that carries both axes is evidence of an echo; a frame that carries one is evidence only
/// against it: protocol B sends a value when it changes, so one axis moving alone pulls them apart on a
/// real pressure panel, and a panel that mirrors size moves both together. Distinct is latched: one frame
/// apart is enough to show the pressure is not the size.
public enum SizeEcho: UInt8, Hashable, Sendable {
    /// No frame carried both axes: nothing is known (every contact of a device without touch major).
    case unseen = 0
    /// Every frame that carried both had them equal, at least one did, and none showed them apart.
    case echoed = 1
    /// A frame showed pressure and touch major apart: the pressure is not the contact's size.
    case distinct = 2

    /// The echo after one frame of the contact: which of the two axes the frame sent, and the contact's
    /// pressure and touch major as they stand after it.
    @inline(__always)
    public func seeing(pressureSent: Bool, majorSent: Bool, pressure: Int32, major: Int32) -> SizeEcho {
        guard pressureSent || majorSent else { return self }
        if pressure != major { return .distinct }
        guard pressureSent && majorSent else { return self }
        return self == .distinct ? .distinct : .echoed
    }
}
