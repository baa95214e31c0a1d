extension RandomAccessCollection where Index == Int {
    /// Where an element with `key` is, or would go, in a collection sorted by increasing key: the first
    /// index whose key is not below it (binary search). For the tables the daemon's loop looks clients up
    /// in for every line it writes (``ClientTable``, the daemon's sockets): ids are handed out increasing,
    /// so they stay sorted. `@inlinable` so that each caller gets it specialised and the key read inlined:
    /// this runs for every line × client.
    @inlinable
    public func sortedPosition(of key: Int, by keyOf: (Element) -> Int) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let mid = low + (high - low) / 2
            if keyOf(self[mid]) < key { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
