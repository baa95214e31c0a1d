/// What of a learner is kept between runs (``LearnedAverageFile``), and how it is restored.
extension AverageTouchLearner {
    /// The learner's lasting state, samples oldest first.
    public struct Saved: Hashable, Sendable {
        public var floor: Int32
        public var top: Int32
        public var accepted: Int
        public var average: Double?
        public var samples: [Int32]
        public var varied: [Bool]
        /// Each sample's ``SizeEcho``, in the same order.
        public var echoes: [SizeEcho]
        public var pops: UInt32
        public var popHistory: Int
        public var holds: UInt32
        public var holdHistory: Int
    }

    /// Why a saved state cannot be restored.
    public struct RestoreError: Error, Equatable {
        public var problem: String
    }

    /// The state to keep.
    public var saved: Saved {
        var ordered: [Int32] = []
        var varied: [Bool] = []
        var echoes: [SizeEcho] = []
        for k in 0..<samples.count {
            let i = (head + k) % samples.count
            let bit = UInt64(1) << i
            ordered.append(samples[i])
            varied.append(variedBits & bit != 0)
            echoes.append(echoedBits & bit != 0 ? .echoed : distinctBits & bit != 0 ? .distinct : .unseen)
        }
        return Saved(floor: floor, top: top, accepted: accepted, average: average, samples: ordered,
                     varied: varied, echoes: echoes, pops: pops.bits, popHistory: pops.count, holds: holds.bits,
                     holdHistory: holds.count)
    }

    /// A learner carrying on from `saved`, checked for consistency so a damaged file cannot produce a
    /// nonsensical average.
    public init(restoring s: Saved, parameters: Parameters = .standard) throws(RestoreError) {
        self.init(floor: s.floor, top: s.top, parameters: parameters)
        guard s.floor < s.top else { throw RestoreError(problem: "floor \(s.floor) is not below top \(s.top)") }
        guard s.samples.count <= capacity, s.varied.count == s.samples.count else {
            throw RestoreError(problem: "\(s.samples.count) samples with \(s.varied.count) variation flags (at most \(capacity))")
        }
        guard s.echoes.count == s.samples.count else {
            throw RestoreError(problem: "\(s.samples.count) samples with \(s.echoes.count) size echoes")
        }
        guard s.accepted >= s.samples.count else {
            throw RestoreError(problem: "\(s.accepted) accepted but \(s.samples.count) samples kept")
        }
        guard (0...32).contains(s.popHistory), (0...32).contains(s.holdHistory) else {
            throw RestoreError(problem: "a history of \(s.popHistory) pops and \(s.holdHistory) holds (at most 32)")
        }
        if let a = s.average {
            guard a.isFinite, a > Double(s.floor), a <= Double(s.top) else {
                throw RestoreError(problem: "average \(a) outside \(s.floor)..\(s.top)")
            }
            guard s.accepted >= parameters.warmUp, !s.samples.isEmpty else {
                throw RestoreError(problem: "an average resting on \(s.accepted) samples")
            }
        }
        for (i, v) in s.samples.enumerated() {
            samples.append(v)
            if s.varied[i] { variedBits |= UInt64(1) << i }
            if s.echoes[i] == .echoed { echoedBits |= UInt64(1) << i }
            if s.echoes[i] == .distinct { distinctBits |= UInt64(1) << i }
        }
        accepted = s.accepted
        average = s.average
        pops = RecentShare(bits: s.pops, count: s.popHistory)
        holds = RecentShare(bits: s.holds, count: s.holdHistory)
        stats = Self.orderStatistics(samples)
    }
}
