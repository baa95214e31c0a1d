import PressureCapture
import PressureCore

/// What ``CalibrationSession/proposal()`` proposes: the three values, how many contacts they came from,
/// what to watch out for, and the configuration section that applies them.
public struct CalibrationProposal: Hashable, Sendable {
    public var calibration: ForceCalibration
    public var taps: Int
    public var presses: Int
    /// The firm presses' peaks, raw: how many would pop with this section.
    public var pressPeaks: [Int32]

    /// Fewer contacts than this in a phase makes its statistic shaky (one odd tap moves a median of
    /// three); the proposal still stands, with a warning.
    public static let recommendedTaps = 5
    public static let recommendedPresses = 3

    public init(calibration: ForceCalibration, taps: Int, presses: Int, pressPeaks: [Int32] = []) {
        self.calibration = calibration
        self.taps = taps
        self.presses = presses
        self.pressPeaks = pressPeaks
    }

    /// What pressured makes of the section at `sensitivity`: where peek and pop sit, or why force would
    /// be off for the panel (``ThresholdRule``).
    public func outcome(_ sensitivity: Sensitivity = .medium) -> ForceModel.Outcome {
        ForceModel(.configured(calibration), settings: GestureSettings(sensitivity: sensitivity)).outcome
    }

    /// The section's effect in words, said plainly where the panel cannot pop with it.
    public var verdict: String {
        switch outcome() {
        case .available(let cal, let forces):
            let peek = cal.raw(forForce: forces.peek), pop = cal.raw(forForce: forces.pop)
            let popping = pressPeaks.filter { $0 >= pop }.count
            return "with this section pressured peeks at raw \(peek) (\(DecimalText.fixed(forces.peek, 2)) average touches)"
                + " and pops at raw \(pop) (\(DecimalText.fixed(forces.pop, 2))), at Medium sensitivity;"
                + " \(popping) of the \(pressPeaks.count) firm presses reached pop"
        case .unavailable(let reason):
            return "with this section the panel cannot pop: pressured turns force off for it (\(reason.explanation));"
                + " long press still works. Tap more lightly and press harder, or leave PressureAverage out and"
                + " let pressured learn the average touch"
        }
    }

    public var floor: Int32 { calibration.floor }
    public var average: Int32 { calibration.average }
    public var top: Int32 { calibration.top }

    /// Things a person tuning the panel should know; empty when all is well.
    public var warnings: [String] {
        var w: [String] = []
        if taps < Self.recommendedTaps {
            w.append("only \(taps) tap\(taps == 1 ? "" : "s") measured; \(Self.recommendedTaps) or more give a steadier average")
        }
        if presses < Self.recommendedPresses {
            w.append("only \(presses) firm press\(presses == 1 ? "" : "es") measured; \(Self.recommendedPresses) or more give a steadier top")
        }
        switch outcome() {
        case .unavailable:
            w.append(verdict)
        case .available(let cal, let forces):
            let pop = cal.raw(forForce: forces.pop)
            if pressPeaks.filter({ $0 >= pop }).count * 2 < pressPeaks.count {
                w.append("most firm presses did not reach pop (raw \(pop)): press harder in the second phase")
            }
        }
        return w
    }

    /// A device section in the format of `docs/configuration.md` that matches this device by name,
    /// vendor and product, with a comment saying where the numbers came from:
    ///
    /// ```
    /// # pressurectl calibrate: 8 taps (median peak 150, …), 5 firm presses (95th percentile 1000); …
    /// [FlatFrog FlatFrog Multitouch 3200]
    /// MatchName = …, MatchVendor = 0x25b5, MatchProduct = 0x0002                  (one a line)
    /// PressureFloor = 12, PressureAverage = 150, PressureTop = 1000               (one a line)
    /// ```
    public func configurationSection(for device: DeviceDescription) -> String {
        var s = "# pressurectl calibrate: \(taps) tap\(taps == 1 ? "" : "s") (median peak \(average), lightest touches \(floor)),"
        s += " \(presses) firm press\(presses == 1 ? "" : "es") (95th percentile \(top));"
        s += " maximumPossibleForce \(DecimalText.fixed(calibration.maximumPossibleForce, 2))\n"
        s += "[\(Self.sectionTitle(device.name))]\n"
        s += "MatchName = \(Self.exactGlob(device.name))\n"
        s += "MatchVendor = 0x\(TextColumns.hex(device.identity.vendor, 4))\n"
        s += "MatchProduct = 0x\(TextColumns.hex(device.identity.product, 4))\n"
        s += "PressureFloor = \(floor)\nPressureAverage = \(average)\nPressureTop = \(top)\n"
        return s
    }

    /// A section title for a device name: `#` would start a comment and `[`/`]` end the header, and the
    /// titles `pressured` and `app …` mean other sections, so those are avoided.
    static func sectionTitle(_ name: String) -> String {
        var title = String(name.map { "#[]\n\r".contains($0) ? "-" : $0 })
        title = String(title.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        if title.isEmpty || title == "pressured" || title.hasPrefix("app ") { title = "device " + title }
        return title
    }

    /// A `MatchName` glob matching exactly `name`: glob characters escaped with `\`; `#` (which would start
    /// a comment) and blanks at either end (which the parser trims) become `?`.
    static func exactGlob(_ name: String) -> String {
        let chars = Array(name)
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let first = chars.firstIndex { !isBlank($0) } ?? chars.count
        let last = chars.lastIndex { !isBlank($0) } ?? -1
        var out = ""
        for (i, c) in chars.enumerated() {
            if i < first || i > last || c == "#" || c == "\n" || c == "\r" {
                out += "?"
            } else if "*?[]\\".contains(c) {
                out += "\\" + String(c)
            } else {
                out.append(c)
            }
        }
        return out
    }
}
