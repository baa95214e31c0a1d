/// The daemon's client sockets by id: an array kept in id order, looked up by binary search.
///
/// Why not a dictionary: the loop looks a client up for every write it makes, a frame's lines to each
/// subscriber, and hashing an `Int` (SipHash) and probing costs several times as much as a binary search
/// over a few dozen ids, and is paid again for every subscriber. Ids come
/// from the hub counting up, so a new client goes at the end; only a client leaving moves the rest.
struct ClientConnections: Sequence {
    private var ids: [Int] = []
    private var connections: [ClientConnection] = []

    var count: Int { ids.count }

    /// The index of `id`, or where it would go.
    private func position(_ id: Int) -> Int { ids.sortedPosition(of: id) { $0 } }

    subscript(id: Int) -> ClientConnection? {
        let i = position(id)
        return i < ids.count && ids[i] == id ? connections[i] : nil
    }

    /// Adds (or replaces) the connection of `id`.
    mutating func insert(_ connection: ClientConnection, id: Int) {
        let i = position(id)
        if i < ids.count && ids[i] == id {
            connections[i] = connection
            return
        }
        ids.insert(id, at: i)
        connections.insert(connection, at: i)
    }

    /// Takes the connection of `id` out; nil when there is none.
    mutating func removeValue(forKey id: Int) -> ClientConnection? {
        let i = position(id)
        guard i < ids.count && ids[i] == id else { return nil }
        ids.remove(at: i)
        return connections.remove(at: i)
    }

    /// `(id, connection)` in id order.
    func makeIterator() -> Zip2Sequence<[Int], [ClientConnection]>.Iterator {
        zip(ids, connections).makeIterator()
    }
}
