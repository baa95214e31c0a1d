/// What moves in the haptic device, which decides the default durations: a linear resonant actuator (or a
/// piezo, or a pressure pad) starts and stops within a few milliseconds; an eccentric rotating mass needs
/// tens of milliseconds to spin up before it is felt at all.
public enum HapticActuator: String, CaseIterable, Hashable, Sendable {
    case linear
    case motor

    /// The effects of each gesture when the configuration sets none: peek short and light, pop firmer and
    /// longer (iOS's light and medium impacts; Android's `CLOCK_TICK`/`CONFIRM` on linear actuators).
    public func defaultEffect(_ gesture: HapticGesture) -> HapticEffect {
        switch (self, gesture) {
        case (.linear, .peek): return HapticEffect(strength: 0.4, durationMilliseconds: 12)
        case (.linear, .pop): return HapticEffect(strength: 0.8, durationMilliseconds: 20)
        case (.linear, .quickActions): return HapticEffect(strength: 0.6, durationMilliseconds: 15)
        case (.linear, .longPress): return HapticEffect(strength: 0.6, durationMilliseconds: 15)
        case (.motor, .peek): return HapticEffect(strength: 0.5, durationMilliseconds: 30)
        case (.motor, .pop): return HapticEffect(strength: 1.0, durationMilliseconds: 50)
        case (.motor, .quickActions): return HapticEffect(strength: 0.7, durationMilliseconds: 40)
        case (.motor, .longPress): return HapticEffect(strength: 0.7, durationMilliseconds: 40)
        }
    }
}
