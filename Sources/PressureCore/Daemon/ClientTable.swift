/// The connected clients: each one's queue, subscription and standing, and the one way anything reaches
/// them. ``send(_:to:_:)`` encodes a line once, only if someone is to get it, however many do, and queues
/// it for each; nothing is sent any other way but the last lines of a connection being closed
/// (``sayFarewell(_:ending:_:)``).
///
/// A client stays in the table until the loop has closed its socket and said so (``remove(_:)``); its
/// ``ClientStanding`` says what it may still be sent meanwhile.
struct ClientTable: Sendable {
    struct Client: Sendable {
        let id: Int
        var queue: ClientQueue
        var subscription: Subscription? {
            didSet { listening = ClientListening(subscription, standing) }
        }
        /// Who the peer is, as the kernel vouched when it connected (``AccessPolicy`` decides from it).
        let peer: PeerIdentity
        /// Bad requests in a row (``Hub/maximumErrorsPerClient`` closes the connection).
        var errors = 0
        var standing = ClientStanding.open {
            didSet { listening = ClientListening(subscription, standing) }
        }
        /// `subscription` and `standing` as bits, for the per-line checks of ``ClientTable/send(_:to:_:)``.
        private(set) var listening: ClientListening = []
        /// Closing: the error to queue once its open peeks and contacts are ended (``sayFarewell(_:ending:_:)``).
        var farewell: ProtocolError? = nil
        /// Why it is being closed, for the loop's log.
        var closeReason = ""
        /// Contacts whose `began` it was sent and whose end it was not: they end for it when its stream stops.
        var openTouches: [TouchKey] = []
        /// Contacts still down that ended for it (its touch stream stopped, and it was sent their
        /// `cancelled`): nothing more of them is for it, not even a `began` if it hears touches again, so
        /// no event of a contact follows its end.
        var endedTouches: [TouchKey] = []
        /// Peeks it was sent and whose `pop` or `dismiss` it was not: they are dismissed for it when its
        /// stream stops, and a `pop` or `dismiss` of any other peek is not for it (it joined mid-peek).
        var openPeeks: [OpenPeek] = []
        /// Listed in ``Hub/Work/writable`` since the loop last took the work.
        var markedWritable = false
        /// Its pending bytes are ``ClientTable/shared`` from this offset on, and its queue is empty
        /// (`ClientTable+SharedLines.swift`); nil when they are in its queue.
        var sharedFrom: Int? = nil
    }

    /// A contact on a device.
    struct TouchKey: Hashable, Sendable {
        var device: Int
        var contact: UInt64
    }

    /// A peek a client was sent: of which contact, and the region it was routed for (nil: broadcast).
    struct OpenPeek: Sendable {
        var key: TouchKey
        var region: String?
    }

    /// Who a line goes to. A client being closed gets nothing.
    enum Recipients {
        case client(Int)
        case everyone
        /// Clients subscribed to the device's touches (`touches`) or to its gestures.
        case subscribers(device: Int, touches: Bool)
        /// Clients subscribed to `device` events (devices added and removed).
        case deviceWatchers
        /// Connections subscribed as this app.
        case app(String)
    }

    /// A line for clients, encoded by ``send(_:to:_:)``.
    enum Line {
        case message(ServerMessage)
        /// A gesture or touch event; a touch's `moved` may be coalesced for a slow reader (``ClientQueue``).
        case event(PressureEvent)
        /// A gesture of a touch a region owns, for its owner (``ServerMessage/appendRouted(_:region:app:items:to:)``).
        case routed(PressureEvent, region: String, app: String?, items: [QuickActionItem]?)
    }

    /// What one ``send(_:to:_:)`` did.
    struct Sent {
        /// Clients the line was queued for.
        var clients = 0
        /// Whether a client began to be closed because its queue was full: its farewell is owed, and
        /// what clients listen to changed.
        var closedAny = false
    }

    /// Mutated only here and in `ClientTable+Closing.swift`.
    var clients: [Client] = []
    private var nextID = 1
    private let queueCapacity: Int
    /// The line being sent, encoded once for every recipient; its storage is kept between lines.
    private(set) var encoded: [UInt8] = []
    /// The lines sent to clients whose queues were empty, once for all of them (`ClientTable+SharedLines.swift`).
    var shared: [UInt8] = []
    /// Clients whose pending bytes are in ``shared``.
    var sharers = 0

    init(queueCapacity: Int) {
        self.queueCapacity = queueCapacity
        encoded.reserveCapacity(4096)
        shared.reserveCapacity(16 * 1024)
    }

    // MARK: Sending

    /// Encodes `line` (only if some client is to get it) and queues it for every recipient.
    @discardableResult
    mutating func send(_ line: Line, to recipients: Recipients, _ work: inout Hub.Work) -> Sent {
        var sent = Sent()
        let alone: Bool
        if case .client = recipients { alone = true } else { alone = false }
        let kind = line.kind
        let answer = line.isAnswer
        guard let first = clients.indices.first(where: { isRecipient($0, alone, answer, recipients, kind) }) else {
            return sent
        }
        encode(line)
        startSharedLine()
        let offset = shared.count
        var isShared = false
        // The encoded bytes are lent to every queue through one pointer (moved out of `self` meanwhile, so
        // the queues can be mutated): no retain, release or uniqueness check of the line per client.
        var bytes: [UInt8] = []
        swap(&bytes, &encoded)
        defer { swap(&bytes, &encoded) }
        bytes.withUnsafeBytes { line in
            // From the start: a client that shares lines and is not to get this one leaves the shared lines.
            for c in clients.indices {
                let gets = c == first || (c > first && isRecipient(c, alone, answer, recipients, kind))
                if clients[c].sharedFrom != nil, !gets || !canShare(c, line.count) { unshare(c) }
                guard gets else { continue }
                sent.clients += 1
                if shares(c, line.count, from: offset) {
                    isShared = true
                    noteQueued(c, kind, &work)
                } else if !enqueue(c, line, kind, &work) {
                    sent.closedAny = true
                }
            }
            if isShared { shared.append(contentsOf: line) }
        }
        return sent
    }

    /// This and the checks below run for every line and every client (128 pairs a frame for 16 touch
    /// subscribers, 512 for 64), so they are inlined into ``send(_:to:_:)``'s loop: called, they cost a call
    /// and an exploded copy of `recipients` and `kind` each, about a quarter of a pair's 126 instructions
    /// (callgrind, tools/bench-frame-cost).
    @inline(__always)
    private func isRecipient(_ c: Int, _ alone: Bool, _ answer: Bool, _ recipients: Recipients, _ kind: Line.Kind) -> Bool {
        // A device's events: `listening` holds the standing (open) as well as the subscription.
        if case .subscribers = recipients { return gets(c, recipients) && follows(c, kind) }
        return clients[c].standing.receives(alone: alone, answer: answer) && gets(c, recipients) && follows(c, kind)
    }

    /// Reads the client's fields in place (optional chaining): binding its subscription to a local would
    /// copy it, retaining and releasing its set and string for every client and line.
    @inline(__always)
    private func gets(_ c: Int, _ recipients: Recipients) -> Bool {
        switch recipients {
        case .client(let id): return clients[c].id == id
        case .everyone: return true
        case .subscribers(let device, let touches):
            let listening = clients[c].listening
            guard listening.contains(touches ? .touches : .gestures) else { return false }
            return listening.contains(.everyDevice) || (clients[c].subscription?.includes(device: device) ?? false)
        case .deviceWatchers: return clients[c].subscription?.devices ?? false
        case .app(let app): return clients[c].subscription?.app == app
        }
    }

    /// Whether a line of a contact is for the client: not if the contact ended for it, and a line that
    /// follows a peek only if it was sent the peek.
    @inline(__always)
    private func follows(_ c: Int, _ kind: Line.Kind) -> Bool {
        switch kind {
        case .peekEnd(let key), .peekFollow(let key): return clients[c].openPeeks.contains { $0.key == key }
        case .began(let key), .moved(let key), .end(let key), .peek(let key, _), .gesture(let key):
            return clients[c].endedTouches.isEmpty || !clients[c].endedTouches.contains(key)
        case .other: return true
        }
    }

    mutating func encode(_ line: Line) {
        encoded.removeAll(keepingCapacity: true)
        switch line {
        case .message(let m): m.append(to: &encoded)
        case .event(let e): WireFormat.append(e, to: &encoded)
        case .routed(let e, let region, let app, let items):
            ServerMessage.appendRouted(e, region: region, app: app, items: items, to: &encoded)
        }
    }

    /// Queues the encoded line for the client at index `c`; false when that began to close it (too slow).
    private mutating func enqueue(_ c: Int, _ line: UnsafeRawBufferPointer, _ kind: Line.Kind, _ work: inout Hub.Work) -> Bool {
        let outcome: ClientQueue.Outcome
        switch kind {
        case .other, .began, .peek, .peekEnd, .peekFollow, .gesture: outcome = clients[c].queue.append(line, .other)
        case .moved(let key): outcome = clients[c].queue.append(line, .moved(device: key.device, contact: key.contact))
        case .end(let key): outcome = clients[c].queue.append(line, .end(device: key.device, contact: key.contact))
        }
        switch outcome {
        case .queued, .coalesced:
            noteQueued(c, kind, &work)
        case .dropped:
            break
        case .overflow:
            let error = ProtocolError(id: nil, code: .tooSlow, message: "the client stopped reading; disconnected", fatal: true)
            return !close(at: c, with: error, reason: "too slow: \(clients[c].queue.pendingCount) bytes unread", &work)
        }
        return true
    }

    /// The line is on its way to the client at index `c` (queued or shared): what is open for it follows.
    @inline(__always)
    private mutating func noteQueued(_ c: Int, _ kind: Line.Kind, _ work: inout Hub.Work) {
        switch kind {
        case .began(let key): clients[c].openTouches.append(key)
        case .end(let key): clients[c].openTouches.removeAll { $0 == key }
        case .peek(let key, let region): clients[c].openPeeks.append(OpenPeek(key: key, region: region))
        case .peekEnd(let key): clients[c].openPeeks.removeAll { $0.key == key }
        case .other, .moved, .peekFollow, .gesture: break
        }
        markWritable(c, &work)
    }

    mutating func markWritable(_ c: Int, _ work: inout Hub.Work) {
        guard !clients[c].markedWritable else { return }
        clients[c].markedWritable = true
        work.writable.append(clients[c].id)
    }

    /// The loop took the work: clients with bytes queued from now on are listed anew.
    mutating func workTaken() {
        for c in clients.indices { clients[c].markedWritable = false }
    }

    // MARK: The table

    /// A new client (nothing sent yet); returns its id.
    mutating func connect(peer: PeerIdentity) -> Int {
        let id = nextID
        nextID += 1
        var client = Client(id: id, queue: ClientQueue(capacity: queueCapacity), peer: peer)
        client.openTouches.reserveCapacity(16)
        client.openPeeks.reserveCapacity(8)
        clients.append(client)
        return id
    }

    /// The connection is gone: the client leaves the table. Returns how it stood, nil when it was not in
    /// the table.
    mutating func remove(_ id: Int) -> ClientStanding? {
        guard let c = index(of: id) else { return nil }
        if clients[c].sharedFrom != nil { sharers -= 1 }
        return clients.remove(at: c).standing
    }

    /// Whether the client is connected and may send requests.
    func isOpen(_ id: Int) -> Bool { index(of: id).map { clients[$0].standing == .open } ?? false }

    func standing(of id: Int) -> ClientStanding? { index(of: id).map { clients[$0].standing } }

    /// Who the client is; ``PeerIdentity/unknown`` for a client not in the table.
    func peer(of id: Int) -> PeerIdentity { index(of: id).map { clients[$0].peer } ?? .unknown }

    /// The client's subscription, nil before it subscribed. (Fields are read one by one rather than the
    /// entry copied: a copy held while a line is queued for the client would copy its queue's storage.)
    func subscription(of id: Int) -> Subscription? { index(of: id).flatMap { clients[$0].subscription } }

    /// The contacts open for the client (``Client/openTouches``).
    func openTouches(of id: Int) -> [TouchKey] { index(of: id).map { clients[$0].openTouches } ?? [] }

    /// The peeks open for the client (``Client/openPeeks``).
    func openPeeks(of id: Int) -> [OpenPeek] { index(of: id).map { clients[$0].openPeeks } ?? [] }

    /// The client's touch stream of these contacts stopped (it was sent their `cancelled`): they stay over
    /// for it while down. Those no longer down (`isDown`) are forgotten, so the list holds at most the
    /// fingers down now.
    mutating func stopHearing(_ id: Int, _ keys: [TouchKey], isDown: (TouchKey) -> Bool) {
        guard let c = index(of: id) else { return }
        clients[c].endedTouches.removeAll { !isDown($0) }
        clients[c].endedTouches += keys.filter { isDown($0) && !clients[c].endedTouches.contains($0) }
    }

    mutating func subscribe(_ id: Int, _ subscription: Subscription) {
        guard let c = index(of: id) else { return }
        clients[c].subscription = subscription
    }

    /// Takes away the app claims `keeps` refuses (the configuration closed the app to them); returns the
    /// clients and the apps they lost.
    mutating func revokeApps(keeping keeps: (String, PeerIdentity) -> Bool) -> [(client: Int, app: String)] {
        var revoked: [(client: Int, app: String)] = []
        for c in clients.indices {
            guard let app = clients[c].subscription?.app, !keeps(app, clients[c].peer) else { continue }
            clients[c].subscription?.app = nil
            revoked.append((clients[c].id, app))
        }
        return revoked
    }

    /// Counts a bad request; returns how many the client has made in a row.
    mutating func countError(_ id: Int) -> Int {
        guard let c = index(of: id) else { return 0 }
        clients[c].errors += 1
        return clients[c].errors
    }

    /// Bad requests the client made in a row.
    func errorCount(_ id: Int) -> Int { index(of: id).map { clients[$0].errors } ?? 0 }

    /// A request was answered without an error: the run of errors is over.
    mutating func resetErrors(_ id: Int) {
        guard let c = index(of: id), clients[c].errors > 0 else { return }
        clients[c].errors = 0
    }

    /// Binary search: ids are handed out increasing and clients leave the table in place, so it is sorted
    /// by id. (The loop looks each written client up twice a frame; a linear search made the fan-out's
    /// cost grow with the square of the clients.)
    func index(of id: Int) -> Int? {
        var lo = 0
        var hi = clients.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if clients[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < clients.count && clients[lo].id == id ? lo : nil
    }

    // MARK: What the table holds

    var count: Int { clients.count }
    var ids: [Int] { clients.map(\.id) }
    var subscriberCount: Int { clients.reduce(0) { $0 + ($1.subscription == nil ? 0 : 1) } }
    var queuedBytes: Int { clients.indices.reduce(0) { $0 + pendingCount($1) } }
    var hasSubscriber: Bool { clients.contains { $0.standing == .open && $0.subscription != nil } }

    func hasPendingBytes(_ id: Int) -> Bool {
        index(of: id).map { pendingCount($0) > 0 } ?? false
    }

    /// Bytes queued for an open client (0 for one being closed or not in the table).
    func backlog(_ id: Int) -> Int {
        index(of: id).map { clients[$0].standing == .open ? pendingCount($0) : 0 } ?? 0
    }

    /// Whether an open client is subscribed to the device's touches.
    func listensToTouches(device id: Int) -> Bool {
        clients.contains {
            $0.standing == .open && ($0.subscription.map { $0.touches && $0.includes(device: id) } ?? false)
        }
    }
}
