import Foundation
@testable import PressureCapture
@testable import PressureCore
import TestSupport

/// The captures the plot's tests draw, written with the evemu writer the round-trip tests check, on a
/// touchscreen whose pressure is 0..2047 and whose firmware marks palms (`ABS_MT_TOOL_TYPE`). Seeded, so
/// the same bytes every run: goldens and the pictures in docs/tools.md rest on them.
enum PlotCaptures {
    /// Ten ordinary taps, 0.6 s apart, peaking at 380…440: too short for a fresh device to have learned
    /// before the ninth.
    static func tenTaps(in dir: URL) throws -> URL {
        var script = Script()
        for (i, peak) in [400, 430, 390, 415, 405, 440, 380, 420, 410, 425].enumerated() {
            script.tap(at: 500_000 + Int64(i) * 600_000, peak: Int32(peak), x: 800 + Int32(i) * 250, y: 1800)
        }
        return try script.write(to: dir.appendingPathComponent("ten-taps.evemu"), name: "pressured plot: ten taps")
    }

    /// What one contact of ``session(in:contacts:)`` is scripted to do.
    enum Kind: CaseIterable { case ordinary, peek, pop, hold, palm }

    /// A session of `contacts` touches, in shuffled blocks of 20: 13 ordinary taps (peaks 360…460), 2 firm
    /// enough to peek (about 700), 2 to pop (about 1700), 2 held still 0.8 s (a long press) and 1 that the
    /// firmware turns into a palm; 0.25…0.6 s apart.
    static func session(in dir: URL, contacts: Int = 200, seed: UInt64 = 28) throws -> URL {
        var rng = SplitMix64(state: seed)
        var kinds: [Kind] = []
        while kinds.count < contacts {
            var block = Array(repeating: Kind.ordinary, count: 13) + [.peek, .peek, .pop, .pop, .hold, .hold, .palm]
            block.shuffle(using: &rng)
            kinds += block
        }
        var script = Script()
        var t: Int64 = 500_000
        for kind in kinds.prefix(contacts) {
            let x = Int32.random(in: 400...3600, using: &rng), y = Int32.random(in: 400...3600, using: &rng)
            let ordinary = Int32.random(in: 360...460, using: &rng)
            switch kind {
            case .ordinary: t = script.tap(at: t, peak: ordinary, x: x, y: y)
            case .peek: t = script.tap(at: t, peak: Int32.random(in: 660...740, using: &rng), x: x, y: y)
            case .pop: t = script.tap(at: t, peak: Int32.random(in: 1600...1800, using: &rng), x: x, y: y, frames: 16)
            case .hold: t = script.tap(at: t, peak: ordinary, x: x, y: y, held: 80)
            case .palm: t = script.tap(at: t, peak: ordinary, x: x, y: y, palmAfter: 4)
            }
            t += Int64.random(in: 250_000...600_000, using: &rng)
        }
        return try script.write(to: dir.appendingPathComponent("session-\(contacts).evemu"), name: "pressured plot: session")
    }

    /// Frames at 100 Hz, one finger at a time in slot 0.
    struct Script {
        var events: [InputEvent] = []
        var id: Int32 = 1

        mutating func frame(_ t: Int64, _ values: [(UInt16, Int32)]) {
            for (code, value) in values {
                events.append(InputEvent(time: Timestamp(microseconds: t), type: EventType.abs, code: code, value: value))
            }
            events.append(InputEvent(time: Timestamp(microseconds: t), type: EventType.syn, code: SynCode.report, value: 0))
        }

        /// A contact rising to `peak` and falling over `frames` frames (with `held` frames at the peak),
        /// drifting a pixel a frame; from its `palmAfter`th frame the firmware calls it a palm. Returns
        /// the time after its lift.
        @discardableResult
        mutating func tap(
            at start: Int64, peak: Int32, x: Int32, y: Int32, frames: Int = 10, held: Int = 0, palmAfter: Int? = nil
        ) -> Int64 {
            var t = start
            var shape: [Int32] = []
            let half = frames / 2
            for k in 0..<frames {
                let rise = k < half ? Double(k + 1) / Double(half) : Double(frames - k) / Double(frames - half)
                shape.append(max(20, Int32((Double(peak) * rise).rounded())))
                if k == half - 1 { shape += Array(repeating: peak, count: held) }
            }
            for (k, p) in shape.enumerated() {
                var values: [(UInt16, Int32)] = [(AbsCode.mtPressure, p)]
                if k == 0 {
                    values = [(AbsCode.mtTrackingID, id), (AbsCode.mtToolType, MTTool.finger),
                              (AbsCode.mtPositionX, x), (AbsCode.mtPositionY, y)] + values
                } else if held == 0 {
                    values.append((AbsCode.mtPositionX, x + Int32(k)))
                }
                if k == palmAfter { values.append((AbsCode.mtToolType, MTTool.palm)) }
                frame(t, values)
                t += 10_000
            }
            frame(t, [(AbsCode.mtTrackingID, -1)])
            id += 1
            return t
        }

        func write(to url: URL, name: String) throws -> URL {
            let axes: [UInt16: AbsInfo] = [
                AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
                AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095, resolution: 16),
                AbsCode.mtToolType: AbsInfo(minimum: 0, maximum: 2),
                AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 2047),
            ]
            let device = DeviceDescription(
                name: name, identity: DeviceIdentity(bus: 3, vendor: 0x1d6b, product: 0x0a28),
                properties: [InputProperty.direct], codes: [EventType.abs: Set(axes.keys)], absInfo: axes)
            let bytes = CaptureWriter.encode(Capture(source: name, device: device, events: events), format: .evemu)
            try Data(bytes).write(to: url)
            return url
        }
    }
}
