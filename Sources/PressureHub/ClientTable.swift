import PressureCore

/// The connected clients: each one's queue, subscription and standing, and the one way anything reaches
/// them: ``send(_:to:_:)`` and ``sendGathered(_:)`` hand lines to the ``LineFanout``, which encodes a line once,
/// only if someone is to get it, however many do; nothing is sent any other way but the last lines of a
/// connection being closed (``sayFarewell(_:ending:_:)``).
///
/// A client stays in the table until the loop has closed its socket and said so (``remove(_:)``); its
/// ``ClientStanding`` says what it may still be sent meanwhile.
struct ClientTable: Sendable {
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

    /// What one ``send(_:to:_:)`` or ``sendGathered(_:)`` did.
    struct Sent {
        /// Lines queued, counted per client.
        var clients = 0
        /// Whether a client began to be closed because its queue was full: its farewell is owed, and
        /// what clients listen to changed.
        var closedAny = false
    }

    /// Mutated only here and by the ``LineFanout``.
    var clients: [Client] = []
    private var nextID = 1
    private let queueCapacity: Int
    /// The lines sent to clients whose queues were empty, once for all of them.
    private var sharedLines = SharedLines()
    private var fanout = LineFanout()

    init(queueCapacity: Int) {
        self.queueCapacity = queueCapacity
    }

    // MARK: Sending

    /// Encodes `line` (only if some client is to get it) and queues it for every recipient.
    @discardableResult
    mutating func send(_ line: Line, to recipients: Recipients, _ work: inout Hub.Work) -> Sent {
        fanout.send(line, to: recipients, &clients, &sharedLines, &work)
    }

    /// Gathers a touch's `moved` for the device's touch subscribers (``LineFanout/gatherMoved(_:for:)``).
    mutating func gatherMoved(_ e: PressureEvent) { fanout.gatherMoved(e, for: clients) }

    /// Whether moved lines wait to be sent (``sendGathered(_:)``).
    var hasGathered: Bool { fanout.hasGathered }

    /// Sends the gathered lines, in order, to every client that is to get them; the run is empty after.
    mutating func sendGathered(_ work: inout Hub.Work) -> Sent { fanout.sendGathered(&clients, &sharedLines, &work) }

    /// The lines shared by clients that keep up (``SharedLines/bytes``).
    var shared: [UInt8] { sharedLines.bytes }
    /// Clients whose pending bytes are in ``shared``.
    var sharers: Int { sharedLines.sharers }

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
        sharedLines.forget(sharingFrom: clients[c].sharedFrom)
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
        clients[c].revokedApp = nil
    }

    /// The app a reload took from the client's subscription (``Client/revokedApp``).
    func revokedApp(of id: Int) -> String? { index(of: id).flatMap { clients[$0].revokedApp } }

    /// Takes away the app claims `keeps` refuses (the configuration closed the app to them); returns the
    /// clients and the apps they lost.
    mutating func revokeApps(keeping keeps: (String, PeerIdentity) -> Bool) -> [(client: Int, app: String)] {
        var revoked: [(client: Int, app: String)] = []
        for c in clients.indices {
            guard let app = clients[c].subscription?.app, !keeps(app, clients[c].peer) else { continue }
            clients[c].subscription?.app = nil
            clients[c].revokedApp = app
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
    /// by id. (The loop looks each written client up twice a frame: a linear search would make the
    /// fan-out's cost grow with the square of the clients.)
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

    // MARK: Closing
    // How a connection ends (``ClientStanding``): its input ends, or the hub closes it; either way the
    // socket is closed only once what the client is owed is written, so the last thing it reads is a
    // whole line.

    /// Begins to close a client, for the reason `error` gives; false when it was closing already or is
    /// not connected. Its farewell (``sayFarewell(_:ending:_:)``) is then owed.
    @discardableResult
    mutating func close(_ id: Int, with error: ProtocolError, reason: String, _ work: inout Hub.Work) -> Bool {
        guard let c = index(of: id) else { return false }
        return close(at: c, with: error, reason: reason, &work)
    }

    mutating func close(at c: Int, with error: ProtocolError, reason: String, _ work: inout Hub.Work) -> Bool {
        clients[c].beginClosing(with: error, reason: reason, &work)
    }

    /// Clients being closed whose last lines are still to be queued.
    var owedFarewells: [Int] { clients.filter { $0.farewell != nil }.map(\.id) }

    /// Queues a closing client's last lines whatever its queue holds: `ending` (what ends its open peeks and
    /// contacts, from the hub), then the error that says why.
    mutating func sayFarewell(_ id: Int, ending lines: [Line], _ work: inout Hub.Work) {
        guard let c = index(of: id), let error = clients[c].farewell else { return }
        clients[c].farewell = nil
        sharedLines.unshare(&clients[c])
        for line in lines + [.message(.error(error))] { fanout.appendFinal(line, to: &clients[c].queue) }
        clients[c].openTouches.removeAll()
        clients[c].openPeeks.removeAll()
        markWritable(c, &work)
    }

    /// The client's input ended (it shut down its side, or hung up): it is sent the answers it is owed,
    /// and is closed once they are written. `owesAnswer`: a request of it waits for the loop (a `reload`).
    mutating func inputEnded(_ id: Int, owesAnswer: Bool, _ work: inout Hub.Work) {
        guard let c = index(of: id) else { return }
        _ = clients[c].standing.handle(.inputEnded)
        if clients[c].standing == .answering { clients[c].closeReason = "its input ended and its answers are written" }
        closeIfWritten(c, owesAnswer: owesAnswer, &work)
    }

    /// Lets `write` take the client's queued bytes. Returns what to tell it it lost, once its queue has
    /// room again (nil: nothing to tell); a client whose last lines are written is handed to the loop to
    /// close. `owesAnswer`: as for ``inputEnded(_:owesAnswer:_:)``.
    mutating func drain(_ id: Int, owesAnswer: Bool, _ write: (UnsafeRawBufferPointer) -> Int, _ work: inout Hub.Work)
        -> DroppedTouches?
    {
        guard let c = index(of: id) else { return nil }
        if clients[c].sharedFrom != nil { sharedLines.drain(&clients[c], write) } else { clients[c].queue.drain(write) }
        closeIfWritten(c, owesAnswer: owesAnswer, &work)
        guard clients[c].standing == .open, clients[c].queue.lostTouches > 0,
              clients[c].queue.pendingCount < clients[c].queue.touchLimit / 2
        else { return nil }
        return clients[c].queue.takeLosses()
    }

    private mutating func closeIfWritten(_ c: Int, owesAnswer: Bool, _ work: inout Hub.Work) {
        // An open client stays open when written (the standing's table): it is passed over before
        // `handle`, which as a mutation would recompute its `listening` after every write.
        guard clients[c].standing != .open, pendingCount(c) == 0, clients[c].farewell == nil,
              !(owesAnswer && clients[c].standing == .answering),
              clients[c].standing.handle(.written)
        else { return }
        work.disconnects.append(Hub.Disconnect(client: clients[c].id, reason: clients[c].closeReason))
    }

    /// Bytes waiting for the client at index `c`: its queue's and its share of the shared lines.
    func pendingCount(_ c: Int) -> Int {
        clients[c].queue.pendingCount + sharedLines.pendingCount(from: clients[c].sharedFrom)
    }
}
