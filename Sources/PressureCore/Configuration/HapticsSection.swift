/// One `[haptics]` section (`docs/configuration.md`, "Haptics"): what it sets; nil keeps the value from
/// before (the defaults, or an earlier file's section).
public struct HapticsSection: Hashable, Sendable {
    /// A gesture's `…Effect` key: off, the daemon's choice, or a kind to start the fallback from.
    public enum EffectChoice: Hashable, Sendable {
        case off
        case auto
        case kind(HapticEffectKind)
    }

    /// The keys the section accepts; the per-gesture ones are a gesture's ``HapticGesture/keyPrefix``
    /// followed by `Effect`, `Strength` or `Ms`.
    public enum Key {
        public static let haptics = "Haptics"
        public static let device = "Device"
        public static let matchName = "MatchName"
        public static let actuator = "Actuator"
        public static let perGesture = ["Effect", "Strength", "Ms"]
        public static let all: [String] =
            [haptics, device, matchName, actuator]
            + HapticGesture.allCases.flatMap { g in perGesture.map { g.keyPrefix + $0 } }
    }

    public var file: String
    /// Line of the `[haptics]` header.
    public var line: Int
    public var mode: HapticSettings.Mode?
    public var nodes: [String]?
    public var name: Glob?
    public var actuator: HapticActuator?
    /// By ``HapticGesture/index``.
    public var effects: [EffectChoice?] = Array(repeating: nil, count: HapticGesture.allCases.count)
    public var strengths: [Double?] = Array(repeating: nil, count: HapticGesture.allCases.count)
    public var milliseconds: [Int?] = Array(repeating: nil, count: HapticGesture.allCases.count)
    /// The line of every key given, by key.
    public var keyLines: [String: Int] = [:]

    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// The settings of several sections in merge order: the actuator first (it decides the defaults),
    /// then every other key, key by key, the last section that sets one winning. A gesture turned `off`
    /// keeps its strength and duration for a later section that turns it on again.
    public static func merged(_ sections: [HapticsSection]) -> HapticSettings {
        var result = HapticSettings(actuator: sections.compactMap(\.actuator).last ?? .linear)
        var on = Array(repeating: true, count: HapticGesture.allCases.count)
        var effects = HapticGesture.allCases.map { result.actuator.defaultEffect($0) }
        for s in sections {
            if let v = s.mode { result.mode = v }
            if let v = s.nodes { result.nodes = v }
            if let v = s.name { result.name = v }
            for i in effects.indices {
                switch s.effects[i] {
                case .off?: on[i] = false
                case .auto?: (on[i], effects[i].kind) = (true, nil)
                case .kind(let k)?: (on[i], effects[i].kind) = (true, k)
                case nil: break
                }
                if let v = s.strengths[i] { effects[i].strength = v }
                if let v = s.milliseconds[i] { effects[i].durationMilliseconds = v }
            }
        }
        result.effects = effects.indices.map { on[$0] ? effects[$0] : nil }
        return result
    }
}
