/// Where each sensitivity puts peek and pop, in average touches: the core's numbers, not the wire's.
extension Sensitivity {
    /// Force at which a contact peeks. Medium is the community's measurement of iOS: 20% of the range of
    /// an uncalibrated device (1.33 average touches).
    public var peekForce: Double {
        switch self {
        case .light: return 1.0
        case .medium: return 4.0 / 3.0
        case .firm: return 2.0
        }
    }

    /// Force at which a peeking contact pops. Medium: 75% of an uncalibrated range (5.0).
    public var popForce: Double {
        switch self {
        case .light: return 4.0
        case .medium: return 5.0
        case .firm: return 17.0 / 3.0
        }
    }
}
