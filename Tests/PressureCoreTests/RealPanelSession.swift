import DeviceTestSupport
@testable import PressureCapture
@testable import PressureCore
import TestSupport

/// A session of a person using a real panel, built from its real contacts (seeded: the same every run)
/// and played through the daemon's pipeline on a fresh device, which learns its average touch as it goes.
///
/// Of every 20 touches, 16 are ordinary (a real ordinary contact, frames, positions and timing as
/// recorded), 2 are firm presses (a real ordinary contact's pressure shape raised so its peak is at
/// 95–100% of the range, held at the peak for 300 ms, the finger still: a press on an item), 1 is a still
/// hold (an ordinary shape whose peak is the panel's median ordinary peak, held still for 800 ms) and 1 a
/// feather touch (an ordinary shape whose peak is 3–8% of the range); the order is shuffled, and the
/// touches are 300–900 ms apart.
struct RealPanelSession {
    enum Kind: Equatable { case ordinary, firm, hold, feather }

    /// What became of one touch.
    struct Touch {
        var kind: Kind
        var peeked = false
        var popped = false
        var longPressed = false
        /// Force was available when it began.
        var forceAvailable = false
        /// Its highest raw pressure, and where peek sat when it began (nil: force unavailable).
        var peak: Int32 = 0
        var peekRaw: Int32? = nil
    }

    var touches: [Touch]
    /// At the end of the session.
    var forceCapability: TouchDevice.ForceCapability
    var reason: ForceUnavailableReason?
    var learnedAverage: Double?
    var estimate: AverageTouchLearner.Estimate?
    var maximumPossibleForce: Double

    /// Builds and plays a session of `count` touches on `panel`, its ordinary touches drawn from `pool`.
    init(panel: RealPanel, pool: [RealPanel.Contact], seed: UInt64, count: Int = 200) throws {
        var rng = SplitMix64(state: seed)
        let axis = panel.pressureAxis
        let span = Double(axis.maximum) - Double(axis.minimum)
        let ordinaryPeaks = pool.map(\.peak).sorted()
        let median = ordinaryPeaks[(ordinaryPeaks.count - 1) / 2]
        var peaks: [Int32] = []
        var kinds: [Kind] = []
        while kinds.count < count {
            var block: [Kind] = Array(repeating: .ordinary, count: 16) + [.firm, .firm, .hold, .feather]
            block.shuffle(using: &rng)
            kinds += block
        }
        kinds = Array(kinds.prefix(count))

        var script = EventScript()
        var ms: Int64 = 1000
        var id: Int32 = 1
        for kind in kinds {
            guard let real = pool.randomElement(using: &rng) else { break }
            let frames: [RealPanel.Frame]
            switch kind {
            case .ordinary:
                frames = real.frames
            case .firm:
                let target = Double(axis.minimum) + span * Double.random(in: 0.95...1.0, using: &rng)
                frames = Self.held(Self.scaled(real.frames, peak: target, axis), ms: 300, still: true)
            case .hold:
                frames = Self.held(Self.scaled(real.frames, peak: Double(median), axis), ms: 800, still: true)
            case .feather:
                let target = Double(axis.minimum) + span * Double.random(in: 0.03...0.08, using: &rng)
                frames = Self.scaled(real.frames, peak: target, axis)
            }
            let start = ms * 1000
            for (i, f) in frames.enumerated() {
                script.frame(at: (start + f.time) / 1000) {
                    i == 0 ? $0.slot(0, id: id, x: f.x, y: f.y, p: f.pressure) : $0.slot(0, x: f.x, y: f.y, p: f.pressure)
                }
            }
            peaks.append(frames.map(\.pressure).max() ?? 0)
            let end = (start + (frames.last?.time ?? 0)) / 1000 + 10
            script.frame(at: end) { $0.slot(0, id: -1) }
            id = id == 65535 ? 1 : id + 1
            ms = end + Int64.random(in: 300...900, using: &rng)
        }

        let device = try TouchDevice(panel.sessionDevice)
        let prior = ForceCalibration.uncalibrated(axis: axis)
        var pipeline = TouchPipeline(
            device: device, deviceID: 1, force: .learning(prior, nil), settings: GestureSettings(), reportsTouches: true)
        var touches = kinds.map { Touch(kind: $0) }
        var check = InvariantChecker(name: "\(panel.label) seed \(seed)")
        let peekRaw = { (p: TouchPipeline) in p.thresholds.forceGesturesEnabled ? p.thresholds.peekRaw : nil }
        var peekNow = peekRaw(pipeline)
        CaptureReplay.run(script.events, through: &pipeline, deliver: { out, _ in
            for e in out {
                check.see(e)
                let n = Int(e.contact) - 1
                guard touches.indices.contains(n) else { continue }
                switch e.kind {
                case .touch(.began):
                    touches[n].forceAvailable = e.maximumPossibleForce > 0
                    touches[n].peak = peaks[n]
                    touches[n].peekRaw = peekNow
                case .gesture(.peek): touches[n].peeked = true
                case .gesture(.pop): touches[n].popped = true
                case .gesture(.longPress): touches[n].longPressed = true
                default: break
                }
            }
        }, announce: { p in peekNow = peekRaw(p) })
        check.finish()
        self.touches = touches
        forceCapability = pipeline.forceCapability
        reason = pipeline.forceUnavailableReason
        learnedAverage = pipeline.force.learner?.estimate?.average
        estimate = pipeline.force.learner?.estimate
        maximumPossibleForce = pipeline.maximumPossibleForce
    }

    /// The frames with their pressure scaled (above the axis minimum) so the peak is `peak`.
    static func scaled(_ frames: [RealPanel.Frame], peak: Double, _ axis: AbsInfo) -> [RealPanel.Frame] {
        let lo = Double(axis.minimum)
        let top = Double(frames.map(\.pressure).max() ?? axis.minimum) - lo
        guard top > 0 else { return frames }
        return frames.map { f in
            var g = f
            let p = lo + (Double(f.pressure) - lo) * (peak - lo) / top
            g.pressure = Int32(min(max(p.rounded(), lo), Double(axis.maximum)))
            return g
        }
    }

    /// The frames held at their peak for `ms` (10 ms frames), the finger still where it landed.
    static func held(_ frames: [RealPanel.Frame], ms: Int64, still: Bool) -> [RealPanel.Frame] {
        guard let peakIndex = frames.indices.max(by: { frames[$0].pressure < frames[$1].pressure }) else { return frames }
        var out = Array(frames[...peakIndex])
        let peak = frames[peakIndex]
        for step in 1...(ms / 10) {
            var f = peak
            f.time = peak.time + step * 10_000
            out.append(f)
        }
        for f in frames[(peakIndex + 1)...] {
            var g = f
            g.time += ms * 1000
            out.append(g)
        }
        if still, let first = out.first {
            for i in out.indices { (out[i].x, out[i].y) = (first.x, first.y) }
        }
        return out
    }
}

extension Array where Element == RealPanelSession.Touch {
    /// Of the touches of `kind` from touch `from` on, the share for which `what` holds (nil: none).
    func share(_ kind: RealPanelSession.Kind, from: Int = 0, to: Int = Int.max, _ what: (Element) -> Bool) -> (Int, Int) {
        let picked = enumerated().filter { $0.offset >= from && $0.offset < to && $0.element.kind == kind }.map(\.element)
        return (picked.filter(what).count, picked.count)
    }
}
