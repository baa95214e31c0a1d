/// Filter mode for one device (`Filter`, `FilterPalms`, `FilterMethod`; `docs/filter.md`): pressured grabs
/// the panel and re-emits every frame through a clone, on which the touches a gesture took are kept from
/// the app (`method`: held back until pressured knows what they are, or cancelled as `MT_TOOL_PALM`), and
/// with `palms`, the palms it detected become `MT_TOOL_PALM`. Off unless configured.
public struct FilterMode: Hashable, Sendable {
    /// Grab the panel and serve the compositor through a clone.
    public var on: Bool
    /// Mark on the clone the palms pressured detects by size, not only those the firmware flags.
    public var palms: Bool
    /// Where `Filter` was set (`[section] file:line`), or `default (off)`.
    public var source: String
    /// How a taken touch is kept from the app (``FilterMethod``).
    public var method: FilterMethod
    /// Where `FilterMethod` was set (`[section] file:line`), or `default`.
    public var methodSource: String

    public init(
        on: Bool = false, palms: Bool = false, source: String = "default (off)",
        method: FilterMethod = .default, methodSource: String = "default"
    ) {
        self.on = on
        self.palms = palms
        self.source = source
        self.method = method
        self.methodSource = methodSource
    }

    /// What `device` gets under `configuration`: the `[pressured]` sections in order, then each matching
    /// device section in order, the last that sets a key winning (as every per-device key merges).
    public static func resolve(for device: DeviceDescription, in configuration: Configuration) -> FilterMode {
        var mode = FilterMode()
        for s in configuration.settingsSections {
            if let v = s.filter {
                mode.on = v
                mode.source = "[pressured] \(s.file):\(s.keyLines[DeviceSection.Key.filter] ?? s.line)"
            }
            if let v = s.filterPalms { mode.palms = v }
            if let v = s.filterMethod {
                mode.method = v
                mode.methodSource = "[pressured] \(s.file):\(s.keyLines[DeviceSection.Key.filterMethod] ?? s.line)"
            }
        }
        for section in configuration.matchingSections(for: device) {
            if let v = section.filter {
                mode.on = v
                mode.source = section.source(of: DeviceSection.Key.filter)
            }
            if let v = section.filterPalms { mode.palms = v }
            if let v = section.filterMethod {
                mode.method = v
                mode.methodSource = section.source(of: DeviceSection.Key.filterMethod)
            }
        }
        return mode
    }
}
