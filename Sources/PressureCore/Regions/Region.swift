/// One quick action: what an app offers on its icon or an item (iOS `UIApplicationShortcutItem`).
public struct QuickActionItem: Hashable, Sendable {
    /// The action's identifier, delivered back to the app when chosen.
    public var id: String
    public var title: String
    public var subtitle: String?
    /// An icon name the drawing client understands.
    public var icon: String?

    public init(id: String, title: String, subtitle: String? = nil, icon: String? = nil) {
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
    }

    /// At most this many quick actions show at once (iOS shows four).
    public static let maximumShown = 4
}

/// What a region wants from touches that begin in it.
public struct RegionWants: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `peek`, `pop`, `dismiss`.
    public static let previews = RegionWants(rawValue: 1)
    /// `quickActions` with the region's items.
    public static let quickActions = RegionWants(rawValue: 2)
    public static let longPress = RegionWants(rawValue: 4)

    public static let `default`: RegionWants = [.previews, .longPress]
    public static let names: [(String, RegionWants)] = [
        ("previews", .previews), ("quickActions", .quickActions), ("longPress", .longPress),
    ]
}

/// A rectangle of the screen a client owns (an icon, a tile, a list row): touches that begin in it are
/// that client's, tagged with the region's id.
public struct Region: Hashable, Sendable {
    /// Chosen by the client; unique per connection.
    public var id: String
    /// The client that registered it.
    public var owner: Int
    /// Screen pixels: left, top, width, height.
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double
    /// Higher is on top where regions overlap.
    public var z: Int
    public var wants: RegionWants
    /// The app this region stands for (an icon): its quick actions are the app's static then dynamic items.
    public var app: String?
    /// The region's own quick actions (an item in an app), at most ``QuickActionItem/maximumShown``.
    public var items: [QuickActionItem]

    public init(
        id: String, owner: Int, x: Double, y: Double, width: Double, height: Double, z: Int = 0,
        wants: RegionWants = .default, app: String? = nil, items: [QuickActionItem] = []
    ) {
        self.id = id
        self.owner = owner
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.z = z
        self.wants = wants
        self.app = app
        self.items = items
    }

    @inlinable
    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px < x + width && py >= y && py < y + height
    }
}

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
