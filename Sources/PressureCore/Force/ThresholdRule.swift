/// Where peek and pop sit on a real panel, in average touches (force), given how much room the panel
/// has above its average touch and, where it was learned, how ordinary touches spread.
///
/// Real panels are not iPhones: their tops are 1.0–4.3 average touches away and ordinary touches reach
/// about 1.6, so neither iOS's pop at 5.0 nor a peek in proportion to it can work. Peek sits above the
/// ordinary-touch tail and pop in the headroom the panel has; where pop cannot sit 10% above peek, force
/// is off (``ForceUnavailableReason/noHeadroom(top:needed:)``), decided at Medium so that choosing a
/// sensitivity never turns force off. The formulas and why: `docs/gestures.md`, "The thresholds".
public enum ThresholdRule {
    /// How learned ordinary touches spread, relative to their median (above the floor).
    public struct Spread: Hashable, Sendable {
        /// `(q10 − floor) / (median − floor)`.
        public var lowerDecile: Double
        /// `(q75 − q25) / (median − floor)`.
        public var interquartile: Double

        public init(lowerDecile: Double, interquartile: Double) {
            self.lowerDecile = lowerDecile
            self.interquartile = interquartile
        }

        /// The spread of a learner's samples, or nil where the median is at the floor.
        public init?(_ e: AverageTouchLearner.Estimate, floor: Int32) {
            let m = Double(e.median) - Double(floor)
            guard m > 0 else { return nil }
            lowerDecile = (Double(e.lowerDecile) - Double(floor)) / m
            interquartile = Double(e.upperQuartile - e.lowerQuartile) / m
        }
    }

    /// Peek and pop, in average touches.
    public struct Forces: Hashable, Sendable {
        public var peek: Double
        public var pop: Double
    }

    /// One sensitivity's numbers.
    public struct Factors: Hashable, Sendable {
        public var base: Double
        public var mirror: Double
        public var interquartile: Double
        public var popMinimum: Double
        public var popGap: Double

        public static func of(_ s: Sensitivity) -> Factors {
            switch s {
            case .light: return Factors(base: 1.2, mirror: 1.05, interquartile: 1.2, popMinimum: 1.7, popGap: 1.2)
            case .medium: return Factors(base: 1.4, mirror: 1.2, interquartile: 1.5, popMinimum: 2.0, popGap: 1.25)
            case .firm: return Factors(base: 1.7, mirror: 1.3, interquartile: 1.8, popMinimum: 2.4, popGap: 1.3)
            }
        }
    }

    /// Pop never sits above this share of the top (a press to 95% of the range must pop).
    public static let popCeiling = 0.90
    /// Pop must sit at least this far above peek, or the panel has no room for both.
    public static let minimumGap = 1.10

    /// Peek wanted by a sensitivity, before fitting.
    public static func peek(_ f: Factors, spread: Spread?) -> Double {
        guard let s = spread else { return f.base }
        return max(f.base, f.mirror * (2 - s.lowerDecile), 1 + f.interquartile * s.interquartile)
    }

    /// The forces for a panel whose top is `headroom` average touches, or why it has no room.
    /// `gap` is the required pop/peek ratio (``minimumGap``; the learner's hysteresis passes a little
    /// more or less so a panel on the edge does not flap).
    public static func forces(
        headroom: Double, spread: Spread?, sensitivity: Sensitivity, gap: Double = minimumGap
    ) -> Result<Forces, ForceUnavailableReason> {
        let ceiling = popCeiling * headroom
        let mediumPeek = peek(.of(.medium), spread: spread)
        guard ceiling >= gap * mediumPeek else {
            return .failure(.noHeadroom(top: headroom, needed: gap * mediumPeek / popCeiling))
        }
        let f = Factors.of(sensitivity)
        // Firm's peek gives way (never below Medium's) where its pop would not fit.
        let p = min(peek(f, spread: spread), max(mediumPeek, ceiling / gap))
        let pop = min(max(f.popGap * p, f.popMinimum), ceiling)
        return .success(Forces(peek: p, pop: max(pop, gap * p)))
    }
}
