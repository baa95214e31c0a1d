import PressureCore

/// How a connection ends (``ClientStanding``): its input ends, or the hub closes it; either way the socket
/// is closed only once what the client is owed is written, so the last thing it reads is a whole line.
extension ClientTable {
    /// Begins to close a client, for the reason `error` gives; false when it was closing already or is
    /// not connected. Its farewell (``sayFarewell(_:ending:_:)``) is then owed.
    @discardableResult
    mutating func close(_ id: Int, with error: ProtocolError, reason: String, _ work: inout Hub.Work) -> Bool {
        guard let c = index(of: id) else { return false }
        return close(at: c, with: error, reason: reason, &work)
    }

    mutating func close(at c: Int, with error: ProtocolError, reason: String, _ work: inout Hub.Work) -> Bool {
        let before = clients[c].standing
        _ = clients[c].standing.handle(.fatal)
        guard clients[c].standing == .closing, before != .closing else { return false }
        clients[c].farewell = error
        clients[c].closeReason = reason
        work.notices.append(.client("client \(clients[c].id) disconnected: \(reason)"))
        return true
    }

    /// Clients being closed whose last lines are still to be queued.
    var owedFarewells: [Int] { clients.filter { $0.farewell != nil }.map(\.id) }

    /// Queues a closing client's last lines whatever its queue holds: `ending` (what ends its open peeks and
    /// contacts, from the hub), then the error that says why.
    mutating func sayFarewell(_ id: Int, ending lines: [Line], _ work: inout Hub.Work) {
        guard let c = index(of: id), let error = clients[c].farewell else { return }
        clients[c].farewell = nil
        unshare(c)
        for line in lines + [.message(.error(error))] {
            encode(line)
            clients[c].queue.appendFinal(encoded[...])
        }
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
        if clients[c].sharedFrom != nil { drainShared(c, write) } else { clients[c].queue.drain(write) }
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
}
