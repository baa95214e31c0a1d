/// The connected clients: each one's queue, subscription and standing, and the one way anything reaches
/// them. ``send(_:to:_:)`` encodes a line once, only if someone is to get it, however many do, and queues
/// it for each; nothing is sent any other way.
///
/// A client that cannot take a line it must not lose (its queue is full) is closed: it stays in the
/// table, marked closing and sent nothing more, until the loop has closed its socket and said so
/// (``remove(_:)``).
struct ClientTable: Sendable {
    struct Client: Sendable {
        let id: Int
        var queue: ClientQueue
        var subscription: Subscription?
        /// Who the peer is, as the kernel vouched when it connected (``AccessPolicy`` decides from it).
        let peer: PeerIdentity
        /// Bad requests in a row (``Hub/maximumErrorsPerClient`` closes the connection).
        var errors = 0
        var closing = false
        /// Listed in ``Hub/Work/writable`` since the loop last took the work.
        var markedWritable = false
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
        /// A gesture or touch event; touch events may be dropped for a slow reader (``ClientQueue``).
        case event(PressureEvent)
        /// A gesture of a touch a region owns, for its owner (``ServerMessage/appendRouted(_:region:app:items:to:)``).
        case routed(PressureEvent, region: String, app: String?, items: [QuickActionItem]?)
    }

    /// What one ``send(_:to:_:)`` did.
    struct Sent {
        /// Clients the line was queued for.
        var clients = 0
        /// Whether a client was closed because its queue was full (what clients listen to changed).
        var closedAny = false
    }

    private(set) var clients: [Client] = []
    private var nextID = 1
    private let queueCapacity: Int
    /// The line being sent, encoded once for every recipient; its storage is kept between lines.
    private var encoded: [UInt8] = []

    init(queueCapacity: Int) {
        self.queueCapacity = queueCapacity
        encoded.reserveCapacity(4096)
    }

    // MARK: Sending

    /// Encodes `line` (only if some client is to get it) and queues it for every recipient.
    @discardableResult
    mutating func send(_ line: Line, to recipients: Recipients, _ work: inout Hub.Work) -> Sent {
        var sent = Sent()
        var isEncoded = false
        for c in clients.indices where !clients[c].closing && Self.gets(clients[c], recipients) {
            if !isEncoded {
                encode(line)
                isEncoded = true
            }
            sent.clients += 1
            if !enqueue(c, droppable: line.isTouch, &work) { sent.closedAny = true }
        }
        return sent
    }

    private static func gets(_ client: Client, _ recipients: Recipients) -> Bool {
        switch recipients {
        case .client(let id): return client.id == id
        case .everyone: return true
        case .subscribers(let device, let touches):
            guard let sub = client.subscription, sub.includes(device: device) else { return false }
            return touches ? sub.touches : sub.gestures
        case .deviceWatchers: return client.subscription?.devices ?? false
        case .app(let app): return client.subscription?.app == app
        }
    }

    private mutating func encode(_ line: Line) {
        encoded.removeAll(keepingCapacity: true)
        switch line {
        case .message(let m): m.append(to: &encoded)
        case .event(let e): WireFormat.append(e, to: &encoded)
        case .routed(let e, let region, let app, let items):
            ServerMessage.appendRouted(e, region: region, app: app, items: items, to: &encoded)
        }
    }

    /// Queues the encoded line for the client at index `c`; false when that closed it (too slow).
    private mutating func enqueue(_ c: Int, droppable: Bool, _ work: inout Hub.Work) -> Bool {
        switch clients[c].queue.append(encoded[...], droppable: droppable) {
        case .queued:
            if !clients[c].markedWritable {
                clients[c].markedWritable = true
                work.writable.append(clients[c].id)
            }
        case .dropped:
            break
        case .overflow:
            let error = ProtocolError(id: nil, code: .tooSlow, message: "the client stopped reading; disconnected", fatal: true)
            return !close(at: c, with: error, reason: "too slow: \(clients[c].queue.pendingCount) bytes unread", &work)
        }
        return true
    }

    /// Closes a client after one last line, the error that says why; false when it was closing already or
    /// is not connected.
    @discardableResult
    mutating func close(_ id: Int, with error: ProtocolError, reason: String, _ work: inout Hub.Work) -> Bool {
        guard let c = index(of: id) else { return false }
        return close(at: c, with: error, reason: reason, &work)
    }

    private mutating func close(at c: Int, with error: ProtocolError, reason: String, _ work: inout Hub.Work) -> Bool {
        guard !clients[c].closing else { return false }
        clients[c].closing = true
        var line: [UInt8] = []
        ServerMessage.error(error).append(to: &line)
        work.disconnects.append(Hub.Disconnect(client: clients[c].id, reason: reason, finalLine: line))
        work.notices.append(.client("client \(clients[c].id) disconnected: \(reason)"))
        return true
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
        clients.append(Client(id: id, queue: ClientQueue(capacity: queueCapacity), peer: peer))
        return id
    }

    /// The connection is gone: the client leaves the table. Returns whether it was being closed, nil when
    /// it was not in the table.
    mutating func remove(_ id: Int) -> Bool? {
        guard let c = index(of: id) else { return nil }
        return clients.remove(at: c).closing
    }

    /// Whether the client is connected and not being closed.
    func isOpen(_ id: Int) -> Bool { index(of: id).map { !clients[$0].closing } ?? false }

    /// Who the client is; ``PeerIdentity/unknown`` for a client not in the table.
    func peer(of id: Int) -> PeerIdentity { index(of: id).map { clients[$0].peer } ?? .unknown }

    /// The client's subscription, nil before it subscribed. (Fields are read one by one rather than the
    /// entry copied: a copy held while a line is queued for the client would copy its queue's storage.)
    func subscription(of id: Int) -> Subscription? { index(of: id).flatMap { clients[$0].subscription } }

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

    /// Lets `write` take the client's queued bytes. Returns how many touch events to tell it it lost,
    /// once its queue has room again (zero: nothing to tell).
    mutating func drain(_ id: Int, _ write: (UnsafeRawBufferPointer) -> Int) -> Int {
        guard let c = index(of: id) else { return 0 }
        clients[c].queue.drain(write)
        guard clients[c].queue.droppedTouches > 0, clients[c].queue.pendingCount < clients[c].queue.touchLimit / 2
        else { return 0 }
        return clients[c].queue.takeDroppedCount()
    }

    private func index(of id: Int) -> Int? { clients.firstIndex { $0.id == id } }

    // MARK: What the table holds

    var count: Int { clients.count }
    var ids: [Int] { clients.map(\.id) }
    var subscriberCount: Int { clients.reduce(0) { $0 + ($1.subscription == nil ? 0 : 1) } }
    var queuedBytes: Int { clients.reduce(0) { $0 + $1.queue.pendingCount } }
    var hasSubscriber: Bool { clients.contains { !$0.closing && $0.subscription != nil } }
    var largestBacklog: Int { clients.lazy.filter { !$0.closing }.map { $0.queue.pendingCount }.max() ?? 0 }

    func hasPendingBytes(_ id: Int) -> Bool {
        index(of: id).map { !clients[$0].queue.isEmpty } ?? false
    }

    /// Whether an open client is subscribed to the device's touches.
    func listensToTouches(device id: Int) -> Bool {
        clients.contains { !$0.closing && ($0.subscription.map { $0.touches && $0.includes(device: id) } ?? false) }
    }
}

extension ClientTable.Line {
    /// Touch events are the lines a slow reader may lose.
    var isTouch: Bool {
        if case .event(let e) = self, case .touch = e.kind { return true }
        return false
    }
}
