/// What a `dropped` notice says (`docs/protocol.md`, "Back-pressure"): the touch events a client's full
/// queue left out since the last notice, and which contacts they belonged to.
///
/// Only `moved` events are ever left out, and only where a newer state of the same contact replaced them
/// (or, with no room for it, the contact's next one or its end will carry it): `began`, `ended` and
/// `cancelled` always arrive, so every contact a client sees begin also ends.
public struct DroppedTouches: Hashable, Sendable {
    /// One contact that lost events.
    public struct Contact: Hashable, Sendable {
        public var key: ContactKey
        /// Its `moved` events left out since the last notice.
        public var moved: Int

        public var device: Int { key.device }
        public var contact: UInt64 { key.contact }

        public init(_ key: ContactKey, moved: Int) {
            self.key = key
            self.moved = moved
        }

        public init(device: Int, contact: UInt64, moved: Int) {
            self.init(ContactKey(device: device, contact: contact), moved: moved)
        }
    }

    /// At most this many contacts are listed in one notice; the events of any others count in ``touches``.
    public static let maximumListed = 32

    /// Touch events left out in all, the listed contacts' and any others'.
    public var touches: Int
    /// The contacts that lost events, in the order they first did.
    public var contacts: [Contact]
    /// More contacts lost events than are listed (sent as `"truncated":true`, absent otherwise).
    public var truncated: Bool

    public init(touches: Int, contacts: [Contact] = [], truncated: Bool = false) {
        self.touches = touches
        self.contacts = contacts
        self.truncated = truncated
    }

    /// `,"touches":N,"contacts":[{"device":1,"contact":9,"moved":12}]` and `,"truncated":true` when so.
    func append(to out: inout [UInt8]) {
        JSONWriter.appendKey("touches", to: &out)
        JSONWriter.appendInteger(touches, to: &out)
        JSONWriter.appendKey("contacts", to: &out)
        JSONWriter.appendList(contacts, to: &out) { c, out in
            out.append(UInt8(ascii: "{"))
            JSONWriter.appendKey("device", first: true, to: &out)
            JSONWriter.appendInteger(c.device, to: &out)
            JSONWriter.appendKey("contact", to: &out)
            WireFormat.appendInteger(Int64(truncatingIfNeeded: c.contact), to: &out)
            JSONWriter.appendKey("moved", to: &out)
            JSONWriter.appendInteger(c.moved, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        if truncated { out.append(contentsOf: #","truncated":true"#.utf8) }
    }
}

extension DroppedTouches {
    /// A `dropped` line's fields; `contacts` absent (an older daemon) is empty.
    init(_ f: MessageFields) throws(MessageDecodingError) {
        var contacts: [Contact] = []
        if f.raw("contacts") != nil {
            for c in try f.objects("contacts") {
                contacts.append(Contact(
                    device: try c.int("device"), contact: try c.integer("contact", as: UInt64.self),
                    moved: try c.int("moved")))
            }
        }
        self.init(
            touches: try f.int("touches"), contacts: contacts,
            truncated: try f.raw("truncated").map { v throws(MessageDecodingError) in
                guard let b = v.boolValue else { throw MessageDecodingError("'truncated' must be a boolean") }
                return b
            } ?? false)
    }
}
