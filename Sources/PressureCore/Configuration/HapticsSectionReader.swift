/// The `[haptics]` section's keys (`docs/configuration.md`, "Haptics").
struct HapticsSectionReader: ConfigurationValueReading {
    let file: String
    let lineNumber: Int

    func read(_ key: String, _ value: String, into s: inout HapticsSection) throws(ConfigurationError) {
        switch key {
        case HapticsSection.Key.haptics:
            s.mode = try choice(key, value, HapticSettings.Mode.allCases.map { ($0.rawValue, $0) })
        case HapticsSection.Key.device:
            try requireValue(key, value, "device nodes such as /dev/input/event3, separated by spaces")
            let nodes = value.split(separator: " ").map(String.init)
            guard nodes.allSatisfy({ $0.hasPrefix("/") }) else {
                throw fail(.invalidChoice(key: key, value: value, expected: "absolute paths of device nodes (/dev/input/eventN)"))
            }
            s.nodes = nodes
        case HapticsSection.Key.matchName:
            try requireValue(key, value, "a glob such as *vibrator*")
            do throws(Glob.Problem) {
                s.name = try Glob(value)
            } catch {
                throw fail(.malformedGlob(key: key, pattern: value, problem: error))
            }
        case HapticsSection.Key.actuator:
            s.actuator = try choice(key, value, HapticActuator.allCases.map { ($0.rawValue, $0) })
        default:
            guard let (gesture, suffix) = Self.gestureKey(key) else { throw fail(.unknownHapticsKey(key: key)) }
            let i = gesture.index
            switch suffix {
            case "Effect":
                let kinds = HapticEffectKind.allCases.map { ($0.rawValue, HapticsSection.EffectChoice.kind($0)) }
                s.effects[i] = try choice(key, value, [("off", .off), ("auto", .auto)] + kinds)
            case "Strength":
                s.strengths[i] = try decimal(key, value, in: 0.05...1, "a number from 0.05 to 1 (of the device's full strength)")
            default:
                s.milliseconds[i] = Int(try integer(key, value, in: 1...1000, "an integer from 1 to 1000 (milliseconds)"))
            }
        }
    }

    /// `PopMs` → (pop, "Ms"); nil for a key no gesture has.
    static func gestureKey(_ key: String) -> (HapticGesture, String)? {
        for g in HapticGesture.allCases where key.hasPrefix(g.keyPrefix) {
            let suffix = String(key.dropFirst(g.keyPrefix.count))
            if HapticsSection.Key.perGesture.contains(suffix) { return (g, suffix) }
        }
        return nil
    }
}
