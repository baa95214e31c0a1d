/// What ``CalibrationSession/proposal()`` proposes: the three values, how many contacts they came from,
/// what to watch out for, and the configuration section that applies them.
public struct CalibrationProposal: Hashable, Sendable {
    public var calibration: ForceCalibration
    public var taps: Int
    public var presses: Int

    /// Fewer contacts than this in a phase makes its statistic shaky (one odd tap moves a median of
    /// three); the proposal still stands, with a warning.
    public static let recommendedTaps = 5
    public static let recommendedPresses = 3

    public init(calibration: ForceCalibration, taps: Int, presses: Int) {
        self.calibration = calibration
        self.taps = taps
        self.presses = presses
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
        let maximum = calibration.maximumPossibleForce
        // docs/configuration.md: where the top is below a sensitivity's pop force, the top itself pops.
        let unreachable = Sensitivity.allCases.filter { $0.popForce > maximum }
        if !unreachable.isEmpty {
            let names = unreachable.map(\.rawValue).joined(separator: ", ")
            w.append("the top is only \(DecimalText.fixed(maximum, 2)) ordinary touches, below the pop force of \(names) sensitivity: there a pop needs the very top of the range")
        }
        return w
    }

    /// A device section in the format of `docs/configuration.md` that matches this device by name,
    /// vendor and product, with a comment saying where the numbers came from:
    ///
    /// ```
    /// # pressurectl calibrate: 8 taps (median peak 150), 5 firm presses (95th percentile 1000)
    /// [FlatFrog FlatFrog Multitouch 3200]
    /// MatchName = FlatFrog FlatFrog Multitouch 3200
    /// MatchVendor = 0x25b5
    /// MatchProduct = 0x0002
    /// PressureFloor = 12
    /// PressureAverage = 150
    /// PressureTop = 1000
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
