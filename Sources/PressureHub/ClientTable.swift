import PressureCore

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
        /// Its pending bytes are ``ClientTable/shared`` from this offset on, and its queue is empty
        /// (`ClientTable+SharedLines.swift`); nil when they are in its queue.
        var sharedFrom: Int? = nil
    }

    /// A peek a client was sent: of which contact, and the region it was routed for (nil: broadcast).
    struct OpenPeek: Sendable {
        var key: ContactKey
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
    /// Indices of the clients ``send(_:to:_:)`` settles in its second pass; its storage is kept between lines.
    var unsettled: [Int] = []
    /// A frame's touch `moved` lines of one device, gathered to go to the clients in one pass
    /// (`ClientTable+MovedRun.swift`).
    var run = MovedRun()

    init(queueCapacity: Int) {
        self.queueCapacity = queueCapacity
        encoded.reserveCapacity(4096)
        shared.reserveCapacity(16 * 1024)
        unsettled.reserveCapacity(64)
        run.reserve()
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
        guard let first = clients.firstIndex(where: { $0.isRecipient(alone, answer, recipients, kind) }) else {
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
            // Two passes. The first, through a pointer into the table (no bounds, uniqueness or exclusivity
            // check a field), settles the clients that share lines and take this one there too, as every
            // reader that keeps up does, and lists the others: at 64 touch subscribers this loop was most
            // of a frame (about 100 instructions a line and client; callgrind, tools/bench-frame-cost).
            // Clients do not depend on one another here (the line joins the shared lines after both
            // passes), so settling some first changes nothing but the order they are listed writable in.
            var rest: [Int] = []
            swap(&rest, &unsettled)
            defer { swap(&rest, &unsettled) }
            rest.removeAll(keepingCapacity: true)
            let sharedCount = shared.count
            clients.withUnsafeMutableBufferPointer { table in
                for c in table.indices {
                    let gets = c == first || (c > first && table[c].isRecipient(alone, answer, recipients, kind))
                    if gets, table[c].hasRoomInShare(endingAt: sharedCount, for: line.count) {
                        sent.clients += 1
                        isShared = true
                        table[c].noteQueued(kind, &work)
                    } else if gets || table[c].sharedFrom != nil {
                        rest.append(gets ? c : ~c)
                    }
                }
            }
            // The others, in table order: a client that shares lines and is not to get this one, or cannot
            // take it there, leaves the shared lines; then it is queued the line (or starts sharing).
            for entry in rest {
                let gets = entry >= 0
                if takeOutsideShare(gets ? entry : ~entry, line, kind, gets: gets, at: offset, &sent, &work) {
                    isShared = true
                }
            }
            if isShared { shared.append(contentsOf: line) }
        }
        return sent
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
    mutating func enqueue(_ c: Int, _ line: UnsafeRawBufferPointer, _ kind: Line.Kind, _ work: inout Hub.Work) -> Bool {
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
    mutating func noteQueued(_ c: Int, _ kind: Line.Kind, _ work: inout Hub.Work) {
        clients[c].noteQueued(kind, &work)
    }

    mutating func markWritable(_ c: Int, _ work: inout Hub.Work) {
        clients[c].markWritable(&work)
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
    func openTouches(of id: Int) -> [ContactKey] { index(of: id).map { clients[$0].openTouches } ?? [] }

    /// The peeks open for the client (``Client/openPeeks``).
    func openPeeks(of id: Int) -> [OpenPeek] { index(of: id).map { clients[$0].openPeeks } ?? [] }

    /// The client's touch stream of these contacts stopped (it was sent their `cancelled`): they stay over
    /// for it while down. Those no longer down (`isDown`) are forgotten, so the list holds at most the
    /// fingers down now.
    mutating func stopHearing(_ id: Int, _ keys: [ContactKey], isDown: (ContactKey) -> Bool) {
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
        let i = clients.sortedPosition(of: id) { $0.id }
        return i < clients.count && clients[i].id == id ? i : nil
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
