/// Which gesture labels a picture has room for: a label that would overlap a label already placed, or
/// another contact's marker, is left out (its marker stays, and the legend counts every gesture), so
/// that many gestures close together do not run into an unreadable strip.
struct LabelPlacer {
    /// An extent on the page.
    struct Box {
        var x0, y0, x1, y1: Double

        func overlaps(_ o: Box) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }
    }

    /// The markers, left to right, with their contacts (a contact's own gestures are labelled at heights
    /// of their own, so a label may cross its own contact's markers).
    private let markers: [(box: Box, contact: UInt64)]
    private(set) var placed: [Box] = []
    private(set) var dropped = 0

    /// Wider than any label ("quickActions" at 11 px is about 83).
    static let widest = 90.0
    /// A marker's half width: the largest shape reaches 7 from its centre.
    static let markerReach = 7.0

    /// With a marker at each of `points`, which other contacts' labels must not cover.
    init(markers points: [(x: Double, y: Double, contact: UInt64)]) {
        let r = Self.markerReach
        markers = points.map { (Box(x0: $0.x - r, y0: $0.y - r, x1: $0.x + r, y1: $0.y + r), $0.contact) }
            .sorted { $0.box.x0 < $1.box.x0 }
    }

    /// The page box of `text` at `x` on `baseline`: about 0.6 em a character for sans-serif, with the
    /// white halo labels are drawn with.
    static func box(_ text: String, x: Double, baseline: Double, fontSize: Double = 11) -> Box {
        let width = 0.6 * fontSize * Double(text.count)
        return Box(x0: x - 1.5, y0: baseline - 0.8 * fontSize - 1.5, x1: x + width + 1.5, y1: baseline + 0.25 * fontSize + 1.5)
    }

    /// Places the label of a gesture of `contact` if it overlaps no label placed so far and no other
    /// contact's marker; returns whether it did. Labels come in time order, left to right, so only labels
    /// that begin within ``widest`` to the left are looked at.
    mutating func place(_ text: String, x: Double, baseline: Double, contact: UInt64) -> Bool {
        let b = Self.box(text, x: x, baseline: baseline)
        if coversAnotherContactsMarker(b, contact) || overlapsAPlacedLabel(b) {
            dropped += 1
            return false
        }
        placed.append(b)
        return true
    }

    func overlapsAPlacedLabel(_ b: Box) -> Bool {
        for p in placed.reversed() {
            if p.x0 < b.x0 - Self.widest { break }
            if p.overlaps(b) { return true }
        }
        return false
    }

    func coversAnotherContactsMarker(_ b: Box, _ contact: UInt64) -> Bool {
        // The first marker that could reach the label, by binary search on the left edges.
        var lo = 0, hi = markers.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if markers[mid].box.x0 < b.x0 - 2 * Self.markerReach { lo = mid + 1 } else { hi = mid }
        }
        for m in markers[lo...] {
            if m.box.x0 >= b.x1 { break }
            if m.contact != contact, m.box.overlaps(b) { return true }
        }
        return false
    }
}
