import PressureCapture
import PressureCore

/// The picture a person tunes thresholds from: force over time, one line per contact, the peek and pop
/// thresholds as they stood over time (a device learning its average touch has none until it has learned,
/// and its thresholds then move as it learns), and every gesture marked where it fired.
///
/// Built from exactly what the pipeline emits (``TouchPipeline`` with touches, run by ``CaptureReplay``,
/// as `pressurectl replay --touches` prints it), so the gestures marked are the ones apps would get.
/// ``svg()`` draws it; nothing here touches a file.
public struct ForcePlot: Sendable {
    public struct Point: Hashable, Sendable {
        public var time: Timestamp
        public var force: Double
    }

    /// One contact's force, in time order, from its `began` to its `ended` or `cancelled`.
    public struct Series: Hashable, Sendable {
        public var contact: UInt64
        public var points: [Point]
        /// Cancelled before the capture's last frame (a palm: a replay cancels nothing else sooner;
        /// at the end it cancels whatever is still down).
        public var cancelled = false
    }

    /// One gesture, at the frame that fired it.
    public struct Marker: Hashable, Sendable {
        public var kind: GestureKind
        public var time: Timestamp
        public var contact: UInt64
        public var force: Double
    }

    /// The thresholds in force from `start` (nil: from the beginning) until the next span's start.
    public struct ThresholdSpan: Hashable, Sendable {
        public var start: Timestamp?
        /// nil where force gestures are off (no pressure, force touch off, still learning).
        public var peekForce: Double?
        public var popForce: Double?
        /// The force at the top of the calibrated range (0 where force is unavailable).
        public var maximumPossibleForce: Double

        public init(start: Timestamp?, thresholds: GestureThresholds, maximumPossibleForce: Double) {
            self.start = start
            if thresholds.forceGesturesEnabled {
                peekForce = thresholds.peekForce
                popForce = thresholds.popForce
            }
            self.maximumPossibleForce = maximumPossibleForce
        }

        /// The thresholds a pipeline has now, from `start`.
        public init(start: Timestamp?, _ pipeline: TouchPipeline) {
            self.init(start: start, thresholds: pipeline.thresholds, maximumPossibleForce: pipeline.maximumPossibleForce)
        }
    }

    /// Where a fresh device would still be learning its average touch, shaded: from the first thing
    /// drawn until `until` (nil: to the end), with a caption saying so.
    public struct LearningShade: Hashable, Sendable {
        public var until: Timestamp?
        public var caption: String

        /// The shade up to `until`, captioned `caption` where it has room.
        public init(until: Timestamp?, caption: String) {
            self.until = until
            self.caption = caption
        }
    }

    public var title: String
    /// A second line under the title: which average touch force is measured against
    /// (``AverageTouchCaption``); nil draws the title alone.
    public var subtitle: String? = nil
    /// Nil: nothing shaded.
    public var learning: LearningShade? = nil
    /// In the order the contacts began.
    public var series: [Series]
    public var markers: [Marker]
    /// The thresholds over time, in time order; the first from the beginning.
    public var spans: [ThresholdSpan]

    /// The last thresholds (what the device ended with).
    public var peekForce: Double? { spans.last?.peekForce }
    public var popForce: Double? { spans.last?.popForce }
    public var maximumPossibleForce: Double { spans.last?.maximumPossibleForce ?? 0 }

    /// Collects the series and markers from a replay's output (touches and gestures), with thresholds
    /// that never changed.
    public init(
        events: [PressureEvent], thresholds: GestureThresholds, maximumPossibleForce: Double, title: String
    ) {
        self.init(events: events, spans: [
            ThresholdSpan(start: nil, thresholds: thresholds, maximumPossibleForce: maximumPossibleForce),
        ], title: title)
    }

    /// Replays `events` through `pipeline` (which must report touches) as ``CaptureReplay`` does, and
    /// plots what came out: the thresholds from the start, and anew each time apps would have heard of
    /// a change (``TouchPipeline/deviceChanged``).
    public init(replaying events: [InputEvent], through pipeline: inout TouchPipeline, title: String) {
        var replay = CaptureReplay(events)
        // An in-memory replay has no file to fail reading.
        self = (try? ForcePlot(replaying: &replay, through: &pipeline, title: title))
            ?? ForcePlot(events: [], spans: [ThresholdSpan(start: nil, pipeline)], title: title)
    }

    /// ``init(replaying:through:title:)-(_,_,String)`` for a replay of any kind (a capture streamed from
    /// its file among them). The picture holds every point, so its size grows with the touches.
    public init(replaying replay: inout CaptureReplay, through pipeline: inout TouchPipeline, title: String)
        throws(CaptureError)
    {
        var outputs: [PressureEvent] = []
        var spans = [ThresholdSpan(start: nil, pipeline)]
        try CaptureReplay.run(&replay, through: &pipeline, deliver: { out, _ in outputs += out },
                              announce: { p in spans.append(ThresholdSpan(start: outputs.last?.time, p)) })
        self.init(events: outputs, spans: spans, title: title)
    }

    /// Collects the series and markers from a replay's output, with the thresholds as they stood over time.
    public init(events: [PressureEvent], spans: [ThresholdSpan], title: String) {
        self.title = title
        self.spans = spans
        var order: [UInt64] = []
        var points: [UInt64: [Point]] = [:]
        var markers: [Marker] = []
        var cancelled: Set<UInt64> = []
        let end = events.last?.time
        for e in events {
            switch e.kind {
            case .touch(let phase):
                if points[e.contact] == nil { order.append(e.contact) }
                points[e.contact, default: []].append(Point(time: e.time, force: e.force))
                if phase == .cancelled, e.time != end { cancelled.insert(e.contact) }
            case .gesture(let kind):
                markers.append(Marker(kind: kind, time: e.time, contact: e.contact, force: e.force))
            }
        }
        series = order.map { Series(contact: $0, points: points[$0] ?? [], cancelled: cancelled.contains($0)) }
        self.markers = markers
    }

    /// What each contact came to, in the order of ``series``.
    public var outcomes: [ContactOutcome] {
        var gestures: [UInt64: Set<GestureKind>] = [:]
        for m in markers { gestures[m.contact, default: []].insert(m.kind) }
        return series.map { ContactOutcome(gestures: gestures[$0.contact] ?? [], cancelled: $0.cancelled) }
    }

    /// Whether the picture colours contacts by what they came to (``ContactOutcome``), not one colour each.
    public var coloursByOutcome: Bool { series.count > ContactOutcome.contactsWithColoursOfTheirOwn }

    /// Where everything goes on the page.
    public var layout: Layout {
        var first: Timestamp? = nil
        var last: Timestamp? = nil
        var highest = spans.map { max($0.maximumPossibleForce, $0.popForce ?? 0) }.max() ?? 0
        for s in series {
            for p in s.points {
                first = min(first ?? p.time, p.time)
                last = max(last ?? p.time, p.time)
                highest = max(highest, p.force)
            }
        }
        for m in markers {
            first = min(first ?? m.time, m.time)
            last = max(last ?? m.time, m.time)
        }
        let start = first ?? Timestamp(microseconds: 0)
        return Layout(start: start, end: last ?? start, forceMaximum: highest)
    }

    /// The page: an SVG canvas with the plot area on the left and the legend on the right, and the
    /// mapping from time and force to its coordinates.
    public struct Layout: Hashable, Sendable {
        public static let width = 1000.0
        public static let height = 560.0
        public static let left = 64.0
        public static let right = 200.0
        public static let top = 48.0
        public static let bottom = 56.0

        public var start: Timestamp
        public var end: Timestamp
        /// The force at the top of the y axis: a whole tick above everything drawn.
        public var yMaximum: Double
        public var yStep: Double
        /// Seconds on the x axis: the capture's span (at least a tenth of a second, so one frame still
        /// has room) up to the next tick.
        public var duration: Double
        public var xStep: Double

        public init(start: Timestamp, end: Timestamp, forceMaximum: Double) {
            self.start = start
            self.end = end
            yStep = Self.niceStep(max(forceMaximum, 1) / 6)
            yMaximum = (max(forceMaximum, 1) / yStep).rounded(.up) * yStep
            let seconds = max(0.1, Double((end - start).microseconds) / 1e6)
            xStep = Self.niceStep(seconds / 8)
            // Up to the next whole tick, so the last frames (and their labels) are not on the edge.
            duration = ((seconds / xStep).rounded(.down) + 1) * xStep
        }

        public var plotWidth: Double { Self.width - Self.left - Self.right }
        public var plotHeight: Double { Self.height - Self.top - Self.bottom }

        /// The x coordinate of a time.
        public func x(_ t: Timestamp) -> Double { x(seconds: Double((t - start).microseconds) / 1e6) }

        public func x(seconds: Double) -> Double { Self.left + plotWidth * seconds / duration }

        /// The y coordinate of a force (0 at the bottom of the plot area).
        public func y(_ force: Double) -> Double { Self.top + plotHeight * (1 - force / yMaximum) }

        /// 1, 2 or 5 times a power of ten, the smallest such at or above `raw`: tick steps people read
        /// at a glance.
        static func niceStep(_ raw: Double) -> Double {
            guard raw.isFinite, raw > 0 else { return 1 }
            var magnitude = 1.0
            while magnitude * 10 <= raw { magnitude *= 10 }
            while magnitude > raw { magnitude /= 10 }
            for m in [1.0, 2.0, 5.0, 10.0] where m * magnitude >= raw { return m * magnitude }
            return 10 * magnitude
        }
    }
}
