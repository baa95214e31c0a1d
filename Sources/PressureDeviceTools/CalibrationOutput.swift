import Glibc
import PressureCommandLine
import PressureCore
import PressureLinux

/// The end of `pressurectl calibrate`, live or from a capture: the proposal and how it was reached on
/// stderr, the configuration section on stdout (so `> file` keeps just the section), and, when asked
/// for, the section appended to a configuration file the daemon will accept.
enum CalibrationOutput {
    /// Returns the exit status: 0 with a proposal, 1 when there is none or it could not be written.
    static func conclude(
        _ session: CalibrationSession, device: DeviceDescription, writePath: String?, yes: Bool, interactive: Bool
    ) -> Int32 {
        let proposal: CalibrationProposal
        do { proposal = try session.proposal() } catch {
            Log.error("pressurectl calibrate: \(error)")
            return 1
        }
        summarise(session, proposal)
        let section = proposal.configurationSection(for: device)
        // Unbuffered, so it shows before the question on stderr.
        try? OutputFile.write(Array(section.utf8), to: 1)
        let target = writePath ?? (interactive && !yes ? CalibrateTool.defaultConfigurationPath : nil)
        guard let path = target else { return 0 }
        if !yes {
            guard interactive else {
                Log.notice("pressurectl calibrate: not written; give --yes to append it to \(path)")
                return 0
            }
            guard ask("Append this section to \(path)? [y/N] ") else {
                Log.plain("Not written. The section above can be added to any file given to pressured --config.")
                return 0
            }
        }
        do {
            try append(section, to: path)
        } catch {
            Log.error("pressurectl calibrate: \(error)")
            return 1
        }
        Log.plain("Appended to \(path). `pressurectl reload` applies it to the running daemon.")
        return 0
    }

    /// How the numbers came about, for the person deciding whether to keep them.
    static func summarise(_ session: CalibrationSession, _ p: CalibrationProposal) {
        let taps = session.contacts(in: .taps).map(\.peak).sorted()
        let presses = session.contacts(in: .presses).map(\.peak).sorted()
        var text = "\n\(p.taps) tap\(p.taps == 1 ? "" : "s") peaking at \(range(taps)), \(p.presses) firm press\(p.presses == 1 ? "" : "es") peaking at \(range(presses))"
        text += " (axis \(session.axis.minimum)..\(session.axis.maximum)):\n"
        text += "  PressureFloor   = \(p.floor)   the lightest touches (10th percentile of touch-down and lift)\n"
        text += "  PressureAverage = \(p.average)   force 1.0 (median peak of the taps)\n"
        text += "  PressureTop     = \(p.top)   the top of the range (95th percentile of the firm presses' peaks)\n"
        text += "  maximumPossibleForce = \(DecimalText.fixed(p.calibration.maximumPossibleForce, 2))\n"
        if case .available = p.outcome() { text += p.verdict + "\n" }
        for w in p.warnings { text += "warning: \(w)\n" }
        Log.plain(text)
    }

    static func range(_ sorted: [Int32]) -> String {
        guard let lo = sorted.first, let hi = sorted.last else { return "-" }
        return lo == hi ? "\(lo)" : "\(lo)..\(hi)"
    }

    /// A y/n question on the terminal; anything but `y`/`yes` (or end of input) is no.
    static func ask(_ question: String) -> Bool {
        // No newline after the question: the answer goes on the same line.
        question.withCString { p in _ = Glibc.write(2, p, strlen(p)) }
        guard let answer = readLine() else { return false }
        let a = answer.lowercased().trimmingSpaces
        return a == "y" || a == "yes"
    }

    /// Appends `section` to the file at `path` (creating it), after checking that the whole file still
    /// parses: a file the daemon would refuse is never written.
    static func append(_ section: String, to path: String) throws(CalibrationWriteError) {
        var existing: [UInt8] = []
        do { existing = try FileBytes.read(path) } catch {
            guard error.errno == ENOENT else { throw .cannotWrite(error) }
        }
        var text = String(decoding: existing, as: UTF8.self)
        if !text.isEmpty { text += text.hasSuffix("\n") ? "\n" : "\n\n" }
        text += section
        do { _ = try Configuration.parse(text, file: path) } catch { throw .wouldBreak(error) }
        do { try OutputFile.replace(path, with: Array(text.utf8)) } catch { throw .cannotWrite(error) }
    }
}
