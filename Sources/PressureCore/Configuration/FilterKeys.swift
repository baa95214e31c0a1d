/// A section's filter mode keys (`Filter`, `FilterPalms`, `FilterMethod`; ``FilterMode``): nil where the
/// section does not say.
public struct FilterKeys: Hashable, Sendable {
    public var on: Bool?
    public var palms: Bool?
    public var method: FilterMethod?

    public init(on: Bool? = nil, palms: Bool? = nil, method: FilterMethod? = nil) {
        self.on = on
        self.palms = palms
        self.method = method
    }
}
