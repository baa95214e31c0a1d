import Glibc
import PressureCapture
import PressureCommandLine
import PressureCore
import PressureLinux

/// `pressurectl plot`: force over time per contact, with the thresholds and the gestures replay gives,
/// as an SVG picture to tune thresholds and calibration from.
public enum PlotTool {
    public static let usage = """
        usage: pressurectl plot CAPTURE -o FILE.svg [--config FILE] [--device N] [--desc FILE]
                                [--sensitivity light|medium|firm] [--force-touch on|off]
                                [--learn-first | --fresh | --learned FILE]
        Draws the capture's force over time, one line per contact, with the peek and pop thresholds and
        every gesture `pressurectl replay` gives for it (the same pipeline, the same settings). By
        default (--learn-first) the device's average touch is learned from the capture's own ordinary
        contacts first, so a recording of a few seconds shows force; the title says which average.
          -o, --output FILE     the picture to write: FILE.svg, or FILE.html for a page that names the
                                curve under the pointer (its contact, force and gestures); - for SVG
                                on standard output

        """ + ReplayOptions.usage

    /// Runs the command; returns the exit status (0 written, 1 bad input or unwritable output, 2 usage).
    public static func main(_ arguments: [String]) -> Int32 {
        let output: String
        let path: String
        let shared: ReplayOptions
        let choice: AverageTouchChoice
        do {
            var options = OptionReader(arguments)
            if options.flag("-h") || options.flag("--help") {
                print(usage)
                return 0
            }
            let out = try options.output()
            shared = try ReplayOptions.read(&options)
            choice = try shared.averageTouch(default: .learnFirst)
            let files = try options.finish()
            guard files.count == 1, let file = files.first else {
                throw OptionReader.UsageError("give exactly one capture file")
            }
            guard let out else { throw OptionReader.UsageError("give the picture's file with -o FILE.svg") }
            path = file
            output = out
        } catch {
            Log.error("pressurectl plot: \(error)")
            Log.plain(usage)
            return 2
        }
        var setup: ReplaySetup
        var learning: CaptureLearning? = nil
        do {
            if choice == .learnFirst { learning = try CaptureLearning.learn(shared, capture: path) }
            setup = try shared.load(capture: path, reportsTouches: true, learner: learning?.held)
        } catch {
            Log.error("pressurectl plot: \(error)")
            if case .usage = error {
                Log.plain(usage)
                return 2
            }
            return 1
        }
        CaptureLoader.warnAssumptions(setup.capture, prefix: "pressurectl plot: ")
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var plot: ForcePlot
        let caption = AverageTouchCaption.text(choice, learning: learning, pipeline: setup.pipeline)
        do throws(CaptureError) {
            var replay = try CaptureReplay(setup.capture)
            plot = try ForcePlot(
                replaying: &replay, through: &setup.pipeline, title: "\(name): \(setup.device.description.name)")
        } catch {
            Log.error("pressurectl plot: \(error)")
            return 1
        }
        plot.subtitle = caption
        if let learning, learning.freshStartedLearning, learning.learner != nil {
            plot.learning = ForcePlot.LearningShade(
                until: learning.freshForceFrom, caption: "a fresh device would still be learning here")
        }
        do throws(SystemError) {
            let fd = try OutputFile.open(output)
            do throws(SystemError) {
                let page = output.hasSuffix(".html") || output.hasSuffix(".htm")
                try OutputFile.write(Array((page ? PlotPage.html(plot) : plot.svg()).utf8), to: fd)
            } catch {
                try? OutputFile.close(fd, path: output)
                throw error
            }
            try OutputFile.close(fd, path: output)
        } catch {
            Log.error("pressurectl plot: \(error)")
            return 1
        }
        var summary = "\(output): \(plot.series.count) contacts, \(plot.markers.count) gestures"
        if let peek = plot.peekForce, let pop = plot.popForce {
            summary += "; peek at force \(DecimalText.fixed(peek, 2)), pop at \(DecimalText.fixed(pop, 2))"
        } else {
            summary += "; no force gestures (\(setup.pipeline.forceUnavailableReason?.explanation ?? "force unavailable"))"
        }
        if let caption { summary += "; " + caption }
        Log.notice("pressurectl plot: " + summary)
        return 0
    }
}
