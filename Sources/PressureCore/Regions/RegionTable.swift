/// Every registered region, kept topmost first (higher `z`, then the later registration), so a hit test
/// is one scan that stops at the first region containing the point: its cost depends on the regions
/// above the point, not on how many clients there are.
public struct RegionTable: Sendable {
    /// Topmost first.
    public private(set) var regions: [Region] = []
    private var order: [UInt64] = []
    private var nextOrder: UInt64 = 0

    public init() {}

    public var isEmpty: Bool { regions.isEmpty }
    public var count: Int { regions.count }

    /// Adds a region, or replaces the owner's region with the same id (which then moves to the top of
    /// its z level, as a fresh registration).
    public mutating func set(_ region: Region) {
        remove(owner: region.owner, id: region.id)
        nextOrder &+= 1
        // Insert before the first region that is below it: lower z, or same z and older.
        var i = 0
        while i < regions.count, regions[i].z > region.z || (regions[i].z == region.z && order[i] > nextOrder) {
            i += 1
        }
        regions.insert(region, at: i)
        order.insert(nextOrder, at: i)
    }

    /// Removes one region; false when the owner has none with that id.
    @discardableResult
    public mutating func remove(owner: Int, id: String) -> Bool {
        guard let i = regions.firstIndex(where: { $0.owner == owner && $0.id == id }) else { return false }
        regions.remove(at: i)
        order.remove(at: i)
        return true
    }

    /// A connection closed: its regions go with it.
    public mutating func removeAll(owner: Int) {
        var i = 0
        while i < regions.count {
            if regions[i].owner == owner {
                regions.remove(at: i)
                order.remove(at: i)
            } else {
                i += 1
            }
        }
    }

    /// The topmost region containing the point.
    public func hit(x: Double, y: Double) -> Region? {
        for r in regions where r.contains(x: x, y: y) { return r }
        return nil
    }
}
