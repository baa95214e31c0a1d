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
