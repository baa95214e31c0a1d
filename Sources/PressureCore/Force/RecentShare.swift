/// How many of the last contacts (up to 32) had some property (popped; were still holds), kept as bits,
/// newest in bit 0: what the learner's "refused only while rare" rules ask.
struct RecentShare: Hashable, Sendable {
    var bits: UInt32 = 0
    /// Contacts recorded, up to the window.
    var count = 0

    mutating func record(_ yes: Bool, window: Int) {
        bits = bits << 1 | (yes ? 1 : 0)
        count = min(count + 1, min(32, max(1, window)))
    }

    /// Of the contacts recorded, how many had it.
    var hits: Int {
        let mask: UInt32 = count >= 32 ? ~0 : (UInt32(1) << count) - 1
        return (bits & mask).nonzeroBitCount
    }

    /// Whether fewer than `share` of the recorded contacts had it (true before any was recorded).
    func isRare(below share: Double) -> Bool { Double(hits) < share * Double(max(1, count)) }
}
