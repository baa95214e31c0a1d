import PressureCore

extension ClientTable {
    /// A line for clients, encoded once by ``LineFanout`` however many get it.
    enum Line {
        case message(ServerMessage)
        /// A gesture or touch event; a touch's `moved` may be coalesced for a slow reader (``ClientQueue``).
        case event(PressureEvent)
        /// A gesture of a touch a region owns, for its owner (``ServerMessage/appendRouted(_:region:app:items:to:)``).
        case routed(PressureEvent, region: String, app: String?, items: [QuickActionItem]?)

        enum Kind {
            case other
            case began(ContactKey)
            case moved(ContactKey)
            /// `ended` or `cancelled`.
            case end(ContactKey)
            /// A peek, routed for a region or broadcast.
            case peek(ContactKey, region: String?)
            /// `pop` or `dismiss`: the end of a peek.
            case peekEnd(ContactKey)
            /// A broadcast `quickActions`: it comes while peeking. (A region's owner always saw its touch from
            /// the start, and an icon's `quickActions` stands in for the peek: those are `gesture`.)
            case peekFollow(ContactKey)
            /// Any other gesture of a contact (`longPress`, a region's `quickActions`).
            case gesture(ContactKey)
        }

        var kind: Kind {
            switch self {
            case .message:
                return .other
            case .event(let e):
                let key = e.contactKey
                switch e.kind {
                case .touch(.began): return .began(key)
                case .touch(.moved): return .moved(key)
                case .touch(.ended), .touch(.cancelled): return .end(key)
                case .gesture(.peek): return .peek(key, region: nil)
                case .gesture(.pop), .gesture(.dismiss): return .peekEnd(key)
                case .gesture(.quickActions): return .peekFollow(key)
                case .gesture(.longPress): return .gesture(key)
                }
            case .routed(let e, let region, _, _):
                let key = e.contactKey
                switch e.kind {
                case .gesture(.peek): return .peek(key, region: region)
                case .gesture(.pop), .gesture(.dismiss): return .peekEnd(key)
                case .gesture(.quickActions), .gesture(.longPress), .touch: return .gesture(key)
                }
            }
        }

        /// Replies, errors and notices: what a client whose input ended is still sent, when they are its own.
        var isAnswer: Bool {
            if case .message = self { return true }
            return false
        }

        /// The line as it goes on the wire, newline included, at the end of `out`.
        func append(to out: inout [UInt8]) {
            switch self {
            case .message(let m): m.append(to: &out)
            case .event(let e): WireFormat.append(e, to: &out)
            case .routed(let e, let region, let app, let items):
                ServerMessage.appendRouted(e, region: region, app: app, items: items, to: &out)
            }
        }
    }
}

/// What a line is to the clients it is sent to: to their queues (a touch's `moved` may be coalesced), to
/// the contacts and peeks open for each, and to clients whose input ended.
