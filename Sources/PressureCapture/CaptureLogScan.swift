import PressureCore

/// A log that may hold several devices and may not describe them (evtest sessions, getevent nodes): its
/// first pass gathers the evidence of each device's events and then chooses the device to play
/// (``DeviceChoice``), described by the log, by `--desc`, or from the evidence.
protocol CaptureLogScan: CaptureLineScan {
    init(file: String)
    /// The devices read so far.
    var deviceCount: Int { get }
    /// Device `index`'s description and what was assumed for it: `given` (from `--desc`) completed, else
    /// the log's, else one worked out from `evidence`.
    func describe(_ index: Int, evidence: AssumedDescription.Evidence, given: DeviceDescription?)
        -> (DeviceDescription, [String])
}

extension CaptureLogScan {
    /// The first pass: every line of `lines` checked, then the device chosen.
    static func choose(_ lines: CaptureLines, deviceIndex: Int?, description: DeviceDescription?)
        throws(CaptureError) -> (index: Int, description: DeviceDescription, assumptions: [String], eventCount: Int)
    {
        var scan = Self(file: lines.file)
        var survey = CaptureSurvey()
        try scan.run(lines, into: &survey)
        let read = scan
        let chosen = try DeviceChoice.choose(
            count: read.deviceCount, wanted: deviceIndex, file: lines.file, hasEvents: { survey.count(of: $0) > 0 },
            describe: { read.describe($0, evidence: survey.evidence(of: $0), given: description) })
        return (chosen.index, chosen.description, chosen.assumptions, survey.count(of: chosen.index))
    }
}
