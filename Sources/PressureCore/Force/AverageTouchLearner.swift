/// Learns a device's average touch (force 1.0) from the peak raw pressure of each finished ordinary
/// contact, with the guards libinput's pen pressure-offset detection taught: a prior until there is
/// evidence, samples it refuses (``Refusal``), a bounded step, and a way to see and reset what was learned.
///
/// The estimate is the median of the last 64 samples, applied in bounded steps; down is the slow
/// direction, as it is the one that makes ordinary touches peek. Each guard, its number and the failure
/// it answers: `docs/gestures.md`, "Learning the average touch"; ``Parameters`` holds the numbers.
///
/// Allocation: the sample ring is reserved at creation; an observation sorts on the stack.
public struct AverageTouchLearner: Hashable, Sendable {
    /// The guards' numbers (documented defaults in ``standard``).
    public struct Parameters: Hashable, Sendable {
        /// Samples before anything is applied.
        public var warmUp = 8
        /// Samples the median is taken over (the ring's size).
        public var capacity = 64
        /// Largest factors per sample while the ring is filling.
        public var earlyStepUp = 1.5
        public var earlyStepDown = 1.15
        /// Largest factors per sample once the ring is full.
        public var upStep = 1.01
        public var downStep = 1.002
        /// Peaks at or below floor + this fraction of the range are grazes, never samples.
        public var grazeFraction = 0.01
        /// Once warm, peaks below this many average touches are refused (light-flood guard).
        public var lightFloodFraction = 0.4
        /// Pops are refused while fewer than `rarePopShare` of the last `window` contacts popped;
        /// stationary holds while fewer than `rareHoldShare` were such holds.
        public var window = 32
        public var rarePopShare = 0.2
        public var rareHoldShare = 0.5
        /// The applied average never falls below floor + this fraction of the range.
        public var minimumAverageFraction = 0.08
        /// At most this fraction down per `dropPeriod` of input time.
        public var largestDrop = 0.10
        public var dropPeriod = Timestamp.Duration(microseconds: 86_400_000_000)
        /// A contact "varies" when its peak is this fraction of the range (and at least 2 units) above
        /// its lowest value; a panel where fewer than `flatShare` of the samples vary is flat.
        public var variationFraction = 0.02
        public var flatShare = 0.25
        /// A panel's pressure is its contact size once this many samples echoed their touch major
        /// (``SizeEcho/echoed``) and none showed the two apart.
        public var sizeEchoes = 8

        public init() {}
        public static let standard = Parameters()
    }

    /// Why a contact was not taken as a sample.
    public enum Refusal: String, Hashable, Sendable {
        case cancelled, palm, stationaryHold, graze, rarePop, lightFlood
    }

    /// What was learned, for thresholds and for people (`pressurectl status`).
    public struct Estimate: Hashable, Sendable {
        /// The applied average touch, raw.
        public var average: Double
        /// Order statistics of the samples in the ring, raw.
        public var median: Int32
        public var lowerDecile: Int32
        public var lowerQuartile: Int32
        public var upperQuartile: Int32
        /// Samples in the ring (what the median rests on) and samples accepted in all.
        public var samples: Int
        public var accepted: Int
        /// Too few samples varied within their contact: the panel reports a constant.
        public var flat: Bool
        /// The samples' pressure echoed their touch major, and none showed the two apart: the panel
        /// reports contact size as pressure.
        public var pressureIsSize: Bool
    }

    public let parameters: Parameters
    /// The raw range learned in: the calibration's floor and top.
    public private(set) var floor: Int32
    public private(set) var top: Int32

    /// The last samples, oldest first once the ring has wrapped at `head`.
    var samples: [Int32]
    /// Bit i: sample i varied within its contact.
    var variedBits: UInt64 = 0
    /// Bit i: sample i's contact echoed its touch major (``SizeEcho/echoed``), or showed them apart
    /// (``SizeEcho/distinct``); neither bit: unseen.
    var echoedBits: UInt64 = 0
    var distinctBits: UInt64 = 0
    var head = 0
    /// Samples accepted in all (saturating).
    public internal(set) var accepted = 0
    /// The applied average; nil while warming up.
    public internal(set) var average: Double?
    /// Of the last contacts: which popped, which were stationary holds.
    var pops = RecentShare()
    var holds = RecentShare()
    /// The downward budget: when the current period of input time started, and the highest average in it.
    var periodStart: Timestamp?
    var periodAverage: Double = 0
    /// Order statistics of the ring, kept from the last accepted sample.
    var stats = OrderStatistics()

    /// Median, lower decile and quartiles of the ring (nearest rank).
    struct OrderStatistics: Hashable, Sendable {
        var median: Int32 = 0
        var q10: Int32 = 0
        var q25: Int32 = 0
        var q75: Int32 = 0
    }

    public init(floor: Int32, top: Int32, parameters: Parameters = .standard) {
        self.parameters = parameters
        self.floor = floor
        self.top = max(top, floor &+ 1)
        samples = []
        samples.reserveCapacity(min(max(1, parameters.capacity), 64))
    }

    var range: Double { Double(top) - Double(floor) }
    var capacity: Int { min(max(1, parameters.capacity), 64) }

    /// What was learned so far; nil while warming up.
    public var estimate: Estimate? {
        guard let average else { return nil }
        return Estimate(
            average: average, median: stats.median, lowerDecile: stats.q10, lowerQuartile: stats.q25,
            upperQuartile: stats.q75, samples: samples.count, accepted: accepted, flat: isFlat,
            pressureIsSize: isPressureSize)
    }

    /// Samples still needed before anything is applied (0 once warm).
    public var samplesToWarmUp: Int { average == nil ? max(0, parameters.warmUp - accepted) : 0 }

    /// A bit for each sample in the ring.
    var ringMask: UInt64 { samples.count == 64 ? ~0 : (UInt64(1) << samples.count) - 1 }

    var isFlat: Bool {
        guard !samples.isEmpty else { return false }
        let varied = (variedBits & ringMask).nonzeroBitCount
        return Double(varied) < parameters.flatShare * Double(samples.count)
    }

    /// Judged over the ring as flatness is, so the first ordinary contacts decide it and one contact that
    /// shows pressure apart from size is enough to clear it while it is remembered.
    var isPressureSize: Bool {
        (echoedBits & ringMask).nonzeroBitCount >= max(1, parameters.sizeEchoes) && distinctBits & ringMask == 0
    }

    /// Takes a finished contact into account. Returns nil when it became a sample, else why not.
    @discardableResult
    public mutating func observe(_ c: ContactSummary) -> Refusal? {
        switch c.ending {
        case .cancelled: return .cancelled
        case .palm: return .palm
        case .lifted: break
        }
        let hold = c.longPressed || (!c.movedBeyondSlop && c.duration >= longPressTime)
        let holdsWereRare = holds.isRare(below: parameters.rareHoldShare)
        let popsWereRare = pops.isRare(below: parameters.rarePopShare)
        holds.record(hold, window: parameters.window)
        pops.record(c.popped, window: parameters.window)
        if hold && holdsWereRare { return .stationaryHold }
        let above = Double(c.peak) - Double(floor)
        if above <= parameters.grazeFraction * range { return .graze }
        if c.popped && popsWereRare { return .rarePop }
        if let a = average, above < parameters.lightFloodFraction * (a - Double(floor)) { return .lightFlood }
        let variation = Double(c.peak) - Double(c.lowest)
        add(c.peak, varied: variation >= max(2, parameters.variationFraction * range), echo: c.sizeEcho)
        update(at: c.ended)
        return nil
    }

    /// The long-press time a stationary hold is measured against (the pipeline sets it from settings).
    public var longPressTime = Timestamp.Duration.milliseconds(500)

    private mutating func add(_ peak: Int32, varied: Bool, echo: SizeEcho) {
        let slot: Int
        if samples.count < capacity {
            slot = samples.count
            samples.append(peak)
        } else {
            slot = head
            samples[slot] = peak
            head = (head + 1) % capacity
        }
        let bit = UInt64(1) << slot
        variedBits = varied ? variedBits | bit : variedBits & ~bit
        echoedBits = echo == .echoed ? echoedBits | bit : echoedBits & ~bit
        distinctBits = echo == .distinct ? distinctBits | bit : distinctBits & ~bit
        accepted = accepted == Int.max ? accepted : accepted + 1
        stats = Self.orderStatistics(samples)
    }

    private mutating func update(at time: Timestamp) {
        let f = Double(floor)
        let median = Double(stats.median)
        guard accepted >= parameters.warmUp || average != nil else { return }
        // Settled: the window is full. Until then the estimate converges freely (a first burst of hard
        // presses must be forgotten quickly), within the early step.
        let settled = samples.count >= capacity && accepted > capacity
        var next: Double
        if let a = average, a > f {
            let up = settled ? parameters.upStep : parameters.earlyStepUp
            let down = settled ? parameters.downStep : parameters.earlyStepDown
            let factor = min(max((median - f) / (a - f), 1 / down), up)
            next = f + (a - f) * factor
        } else {
            next = median
        }
        // Once settled, the downward budget: never below 90% of the highest average of the current
        // period of input time (a day), so a lighter population moves it by at most 10% a day.
        if settled, let a = average {
            if let start = periodStart, time - start < parameters.dropPeriod {
                periodAverage = max(periodAverage, a)
            } else {
                periodStart = time
                periodAverage = a
            }
            next = max(next, f + (1 - parameters.largestDrop) * (periodAverage - f))
        }
        next = min(max(next, f + parameters.minimumAverageFraction * range), Double(top))
        average = next
    }

    /// Median, lower decile and quartiles (nearest rank) of `values`, sorted on the stack.
    static func orderStatistics(_ values: [Int32]) -> OrderStatistics {
        let n = values.count
        guard n > 0 else { return OrderStatistics() }
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: n) { buffer in
            for i in 0..<n { buffer[i] = values[i] }
            // Insertion sort: at most 64 values, and no heap.
            for i in 1..<max(1, n) {
                let v = buffer[i]
                var j = i - 1
                while j >= 0 && buffer[j] > v {
                    buffer[j + 1] = buffer[j]
                    j -= 1
                }
                buffer[j + 1] = v
            }
            func rank(_ q: Double) -> Int32 { buffer[min(n - 1, max(0, Int((q * Double(n - 1)).rounded())))] }
            return OrderStatistics(median: rank(0.5), q10: rank(0.1), q25: rank(0.25), q75: rank(0.75))
        }
    }

    /// Everything learned is forgotten (`pressurectl calibrate --reset`): the device starts afresh.
    public mutating func reset() {
        self = AverageTouchLearner(floor: floor, top: top, parameters: parameters)
    }

    /// The calibration's floor or top changed (a reload): the samples are raw, so they stay.
    public mutating func rebase(floor: Int32, top: Int32) {
        self.floor = floor
        self.top = max(top, floor &+ 1)
        if let a = average { average = min(max(a, Double(floor) + 1), Double(self.top)) }
    }
}
