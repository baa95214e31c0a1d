import PressureCore

extension ClientTable {
    /// One connected client: its queue, subscription and standing, and what is open for it. Its checks
    /// are on its own fields, so that ``LineFanout`` can make them through a pointer into the table for
    /// every line and every client.
    struct Client: Sendable {
        let id: Int
        var queue: ClientQueue
        var subscription: Subscription? {
            didSet { listening = ClientListening(subscription, standing) }
        }
        /// The app a reload took from its subscription (the configuration closed it to this peer), until it
        /// subscribes again: its `setQuickActions` is refused (`not-permitted`), not taken for one made
        /// before subscribing with an app.
        var revokedApp: String? = nil
        /// Who the peer is, as the kernel vouched when it connected (``AccessPolicy`` decides from it).
        let peer: PeerIdentity
        /// Bad requests in a row (``Hub/maximumErrorsPerClient`` closes the connection).
        var errors = 0
        var standing = ClientStanding.open {
            didSet { listening = ClientListening(subscription, standing) }
        }
        /// `subscription` and `standing` as bits, for the per-line checks of ``LineFanout``.
        private(set) var listening: ClientListening = []
        /// Closing: the error to queue once its open peeks and contacts are ended
        /// (``ClientTable/sayFarewell(_:ending:_:)``).
        var farewell: ProtocolError? = nil
        /// Why it is being closed, for the loop's log.
        var closeReason = ""
        /// Contacts whose `began` it was sent and whose end it was not: they end for it when its stream stops.
        var openTouches: [ContactKey] = []
        /// Contacts still down that ended for it (its touch stream stopped, and it was sent their
        /// `cancelled`): nothing more of them is for it, not even a `began` if it hears touches again, so
        /// no event of a contact follows its end.
        var endedTouches: [ContactKey] = []
        /// Peeks it was sent and whose `pop` or `dismiss` it was not: they are dismissed for it when its
        /// stream stops, and a `pop` or `dismiss` of any other peek is not for it (it joined mid-peek).
        var openPeeks: [OpenPeek] = []
        /// Listed in ``Hub/Work/writable`` since the loop last took the work.
        var markedWritable = false
        /// Its pending bytes are ``SharedLines/bytes`` from this offset on, and its queue is empty; nil
        /// when they are in its queue.
        var sharedFrom: Int? = nil

        // MARK: Whether a line is for it
        /// Whether a line of `kind` to `recipients` is for it. `alone`: the line is addressed to it alone;
        /// `answer`: the line answers a request (``ClientStanding/receives(alone:answer:)``).
        @inline(__always)  // for every line and client: called, each check cost a call and a copy of its arguments
        func isRecipient(
            of recipients: ClientTable.Recipients, _ kind: ClientTable.Line.Kind, alone: Bool, answer: Bool
        ) -> Bool {
            hears(recipients, alone: alone, answer: answer) && follows(kind)
        }

        /// Whether lines to `recipients` are for it, whatever contact they are of.
        @inline(__always)
        func hears(_ recipients: ClientTable.Recipients, alone: Bool, answer: Bool) -> Bool {
            // A device's events: `listening` holds the standing (open) as well as the subscription.
            if case .subscribers = recipients { return gets(recipients) }
            return standing.receives(alone: alone, answer: answer) && gets(recipients)
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

        /// Whether a line of a contact is for it: not if the contact ended for it, and a line that follows a
        /// peek only if it was sent the peek.
        @inline(__always)
        func follows(_ kind: ClientTable.Line.Kind) -> Bool {
            switch kind {
            case .peekEnd(let key), .peekFollow(let key): return openPeeks.contains { $0.key == key }
            case .began(let key), .moved(let key), .end(let key), .peek(let key, _), .gesture(let key):
                return endedTouches.isEmpty || !endedTouches.contains(key)
            case .other: return true
            }
        }

        // MARK: What a line does to it
        /// The line is on its way to it (queued or shared): what is open for it follows, and the loop is to
        /// write it.
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

        /// Queues the encoded line; false when that began to close it (too slow).
        mutating func enqueue(
            _ line: UnsafeRawBufferPointer, _ kind: ClientTable.Line.Kind, _ work: inout Hub.Work
        ) -> Bool {
            let outcome: ClientQueue.Outcome
            switch kind {
            case .other, .began, .peek, .peekEnd, .peekFollow, .gesture: outcome = queue.append(line, .other)
            case .moved(let key): outcome = queue.append(line, .moved(device: key.device, contact: key.contact))
            case .end(let key): outcome = queue.append(line, .end(device: key.device, contact: key.contact))
            }
            switch outcome {
            case .queued, .coalesced:
                noteQueued(kind, &work)
            case .dropped:
                break
            case .overflow:
                let error = ProtocolError(id: nil, code: .tooSlow, message: "the client stopped reading; disconnected", fatal: true)
                return !beginClosing(with: error, reason: "too slow: \(queue.pendingCount) bytes unread", &work)
            }
            return true
        }

        /// Begins to close it, for the reason `error` gives; false when it was closing already. Its farewell
        /// (``ClientTable/sayFarewell(_:ending:_:)``) is then owed.
        mutating func beginClosing(with error: ProtocolError, reason: String, _ work: inout Hub.Work) -> Bool {
            let before = standing
            _ = standing.handle(.fatal)
            guard standing == .closing, before != .closing else { return false }
            farewell = error
            closeReason = reason
            work.notices.append(.client("client \(id) disconnected: \(reason)"))
            return true
        }

        // MARK: Its share of the shared lines
        /// Whether it shares lines and its share, ending at `end` in ``SharedLines/bytes``, can take `count`
        /// more bytes: it stays below its queue's touch limit, where the queue would take a `moved` as it is.
        @inline(__always)  // for every line and client, as isRecipient
        func hasRoomInShare(endingAt end: Int, for count: Int) -> Bool {
            guard let from = sharedFrom else { return false }
            return end - from + count <= queue.touchLimit
        }

        /// Whether it can start sharing lines at `offset` of ``SharedLines/bytes`` with `count` bytes: its
        /// queue is empty (nothing of it comes before them), the shared lines are not past their bound, and
        /// the bytes are within its touch limit.
        @inline(__always)  // for every line and client, as isRecipient
        func canStartSharing(_ count: Int, at offset: Int) -> Bool {
            queue.isEmpty && offset <= SharedLines.limit && count <= queue.touchLimit
        }
    }
}
