import PressureCommandLine
import PressureCore

/// One line per finished contact on stderr, the same live and from a capture:
/// `tap 3: peak 152 (touch-down 20, lift 31)`.
struct ContactReport {
    var counts: [CalibrationSession.Phase: Int] = [:]
    /// On a terminal with a live status line, which each report first clears.
    var clearsStatusLine = false

    func count(_ phase: CalibrationSession.Phase) -> Int { counts[phase] ?? 0 }

    mutating func finished(_ c: CalibrationSession.Contact) {
        counts[c.phase, default: 0] += 1
        let what = c.phase == .taps ? "tap" : "firm press"
        let line = "\(what) \(count(c.phase)): peak \(c.peak) (touch-down \(c.down), lift \(c.lift))"
        Log.plain((clearsStatusLine ? "\r\u{1b}[K" : "") + line)
    }
}
