/// A rectangle of the screen a client owns (an icon, a tile, a list row): touches that begin in it are
/// that client's, tagged with the region's id.
public struct Region: Hashable, Sendable {
    /// Chosen by the client; unique per connection.
    public var id: String
    /// The client that registered it: the daemon's number for the connection, not on the wire (a
    /// `setRegion` request decodes with 0 and the daemon fills it in).
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
    /// False: the daemon plays no haptic effect for touches that begin here (the app plays its own).
    public var haptics: Bool

    public init(
        id: String, owner: Int, x: Double, y: Double, width: Double, height: Double, z: Int = 0,
        wants: RegionWants = .default, app: String? = nil, items: [QuickActionItem] = [], haptics: Bool = true
    ) {
        self.haptics = haptics
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
