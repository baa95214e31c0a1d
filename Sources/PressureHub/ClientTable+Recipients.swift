import PressureCore

/// Whether a line is for a client, and what is open for it once it is on its way: checks on the client's
/// own fields, so that ``ClientTable/send(_:to:_:)`` can make them through a pointer into the table for
/// every line and every client (128 pairs a frame for 16 touch subscribers, 512 for 64).
extension ClientTable.Client {
    /// Inlined into the send loop: called, each check cost a call and an exploded copy of `recipients`
    /// and `kind` (callgrind, tools/bench-frame-cost).
    @inline(__always)
    func isRecipient(_ alone: Bool, _ answer: Bool, _ recipients: ClientTable.Recipients, _ kind: ClientTable.Line.Kind) -> Bool {
        // A device's events: `listening` holds the standing (open) as well as the subscription.
        if case .subscribers = recipients { return gets(recipients) && follows(kind) }
        return standing.receives(alone: alone, answer: answer) && gets(recipients) && follows(kind)
    }

    /// Reads the fields in place (optional chaining): binding the subscription to a local would copy it,
    /// retaining and releasing its set and string for every client and line.
    @inline(__always)
    private func gets(_ recipients: ClientTable.Recipients) -> Bool {
        switch recipients {
        case .client(let client): return id == client
        case .everyone: return true
        case .subscribers(let device, let touches):
            guard listening.contains(touches ? .touches : .gestures) else { return false }
            return listening.contains(.everyDevice) || (subscription?.includes(device: device) ?? false)
        case .deviceWatchers: return subscription?.devices ?? false
        case .app(let app): return subscription?.app == app
        }
    }

    /// Whether a line of a contact is for the client: not if the contact ended for it, and a line that
    /// follows a peek only if it was sent the peek.
    @inline(__always)
    private func follows(_ kind: ClientTable.Line.Kind) -> Bool {
        switch kind {
        case .peekEnd(let key), .peekFollow(let key): return openPeeks.contains { $0.key == key }
        case .began(let key), .moved(let key), .end(let key), .peek(let key, _), .gesture(let key):
            return endedTouches.isEmpty || !endedTouches.contains(key)
        case .other: return true
        }
    }

    /// The line is on its way to the client (queued or shared): what is open for it follows, and the loop
    /// is to write it.
    @inline(__always)
    mutating func noteQueued(_ kind: ClientTable.Line.Kind, _ work: inout Hub.Work) {
        switch kind {
        case .began(let key): openTouches.append(key)
        case .end(let key): openTouches.removeAll { $0 == key }
        case .peek(let key, let region): openPeeks.append(ClientTable.OpenPeek(key: key, region: region))
        case .peekEnd(let key): openPeeks.removeAll { $0.key == key }
        case .other, .moved, .peekFollow, .gesture: break
        }
        markWritable(&work)
    }

    @inline(__always)
    mutating func markWritable(_ work: inout Hub.Work) {
        guard !markedWritable else { return }
        markedWritable = true
        work.writable.append(id)
    }
}
