import PressureCore

/// A capture read from its bytes as it is played, so that memory does not grow with its length: two
/// passes over the lines (``CaptureLines``), neither keeping the events (`docs/architecture.md`, "Reading
/// a capture, streamed"). ``open(_:format:description:deviceIndex:)`` checks every line, so a bad one is
/// reported (file:line) before any event is played, and keeps what needs the whole file (description,
/// device chosen, its event count, what was assumed); ``read(into:)`` reads again and hands out events.
/// The same readers run in both passes and in ``readAll()``, so a file streams to exactly the events it
/// reads to whole. An evemu file may be read in one pass (``FirstPass/header``): whoever plays it so holds
/// back what it makes of the events until the file is known good (its end, or ``checkRest()``).
public struct CaptureStream {
    /// What ``open(_:format:description:deviceIndex:firstPass:)`` reads before the first event is played.
    public enum FirstPass: Sendable {
        /// The whole file, every line checked: nothing bad can come after an event was played.
        case wholeFile
        /// For an evemu file with a description before its first event (in the file, or from `--desc`),
        /// that header only; the events are checked as the second pass reads them (``isChecked``). A
        /// header line after an event is then an error, ``CaptureError/Reason/headerAfterEvents``: open
        /// the file again with ``wholeFile``. Other formats, and an evemu file without that header, are
        /// read whole first anyway.
        case header
    }

    /// Where it came from, for messages (a file name).
    public let source: String
    public let format: CaptureFormat
    public let device: DeviceDescription
    /// What the reader had to assume because the file did not say (``Capture/assumptions``).
    public let assumptions: [String]
    /// The events the second pass hands out; nil where only the header was read first.
    public let eventCount: Int?
    /// Whether the second pass has handed out every event.
    public private(set) var isFinished = false
    /// Whether every line of the file has been checked: from the start, unless only the header was read
    /// first (then once the stream has ended, or after ``checkRest()``).
    public private(set) var isChecked: Bool

    private let lines: CaptureLines
    private var pass: SecondPass

    /// The second pass: the reader in the state it starts from, and the device it keeps.
    private enum SecondPass {
        /// `lateHeaderFails`: where only the header was read first, and it is the description.
        case evemu(EvemuScan, lateHeaderFails: Bool)
        case evtest(EvtestScan, session: Int)
        case getevent(GeteventScan, device: Int)
        case libinputRecord(LibinputRecordPlayback)
    }

    /// The events a ``read(into:)`` hands out at least, where that many are left (a block of lines for the
    /// line readers: a few thousand events).
    static let batch = 1024

    private init(
        lines: CaptureLines, format: CaptureFormat, device: DeviceDescription, assumptions: [String],
        eventCount: Int?, pass: SecondPass
    ) {
        source = lines.file
        self.lines = lines
        self.format = format
        self.device = device
        self.assumptions = assumptions
        self.eventCount = eventCount
        self.pass = pass
        isChecked = eventCount != nil
    }

    /// The first pass over `lines` (in the format given, else the one ``CaptureReader/format(of:)`` tells):
    /// device `deviceIndex` (nil: the first touch device), with `description` (from `--desc`) standing in
    /// for one the file lacks, or replacing its own, for the evemu, evtest and getevent formats.
    public static func open(
        _ lines: CaptureLines, format: CaptureFormat? = nil, description: DeviceDescription? = nil,
        deviceIndex: Int? = nil, firstPass: FirstPass = .wholeFile
    ) throws(CaptureError) -> CaptureStream {
        let file = lines.file
        var told = format
        if told == nil { told = try CaptureReader.format(of: lines) }
        guard let format = told else { throw CaptureError(file: file, line: 0, reason: .unknownFormat) }
        try lines.restart()
        let stream: CaptureStream
        switch format {
        case .evemu:
            var scan = EvemuScan(file: file)
            var ignored = IgnoredEvents()
            var ended = false
            if firstPass == .header {
                // Up to the block of the first event: enough where the description is all before it.
                while scan.eventCount == 0, try scan.step(lines, into: &ignored) {}
                ended = scan.eventCount == 0
            }
            let wholeHeader = description != nil || (scan.header.description != nil && scan.lateHeaderLine == nil)
            let whole = firstPass == .wholeFile || ended || !wholeHeader
            if whole && !ended { try scan.run(lines, into: &ignored) }
            guard let device = description ?? scan.header.description else {
                throw CaptureError(file: file, line: 0, reason: .missingDescription)
            }
            stream = CaptureStream(
                lines: lines, format: format, device: device, assumptions: [],
                eventCount: whole ? scan.eventCount : nil,
                pass: .evemu(EvemuScan(file: file), lateHeaderFails: !whole && description == nil))
        case .evtest:
            let chosen = try EvtestScan.choose(lines, deviceIndex: deviceIndex, description: description)
            stream = CaptureStream(
                lines: lines, format: format, device: chosen.description, assumptions: chosen.assumptions,
                eventCount: chosen.eventCount, pass: .evtest(EvtestScan(file: file), session: chosen.index))
        case .getevent:
            let chosen = try GeteventScan.choose(lines, deviceIndex: deviceIndex, description: description)
            stream = CaptureStream(
                lines: lines, format: format, device: chosen.description, assumptions: chosen.assumptions,
                eventCount: chosen.eventCount, pass: .getevent(GeteventScan(file: file), device: chosen.index))
        case .libinputRecord:
            var parser = LibinputRecordReader.Parser(lines: lines, wanted: deviceIndex)
            let chosen = try parser.run()
            stream = CaptureStream(
                lines: lines, format: format, device: chosen.description, assumptions: [],
                eventCount: chosen.eventCount, pass: .libinputRecord(LibinputRecordPlayback(chosen.events)))
        }
        try lines.restart()
        return stream
    }

    /// Appends the next events to `events`: at least ``batch`` where that many are left (fewer only at
    /// the end, when ``isFinished`` is set). A file that no longer reads as it did in the first pass (it
    /// changed, or could not be read) is an error.
    public mutating func read(into events: inout [InputEvent]) throws(CaptureError) {
        let target = events.count + Self.batch
        while !isFinished, events.count < target {
            switch pass {
            case .evemu(var scan, let lateHeaderFails):
                try step(&scan, device: nil, into: &events)
                if lateHeaderFails, let line = scan.lateHeaderLine {
                    throw CaptureError(file: source, line: line, reason: .headerAfterEvents)
                }
                pass = .evemu(scan, lateHeaderFails: lateHeaderFails)
            case .evtest(var scan, let session):
                try step(&scan, device: session, into: &events)
                pass = .evtest(scan, session: session)
            case .getevent(var scan, let device):
                try step(&scan, device: device, into: &events)
                pass = .getevent(scan, device: device)
            case .libinputRecord(var playback):
                if try !playback.read(lines, into: &events, atLeast: target - events.count) { isFinished = true }
                pass = .libinputRecord(playback)
            }
        }
    }

    /// Checks every line not yet read, at once, where the events are checked as they are read
    /// (``FirstPass/header``): after this, nothing read from the stream can be an error but the file's
    /// failing or changing. The second pass then goes on where it was.
    public mutating func checkRest() throws(CaptureError) {
        guard !isChecked else { return }
        guard case .evemu(var ahead, let lateHeaderFails) = pass else {
            isChecked = true
            return
        }
        let position = lines.position
        var ignored = IgnoredEvents()
        try ahead.run(lines, into: &ignored)
        if lateHeaderFails, let line = ahead.lateHeaderLine {
            throw CaptureError(file: source, line: line, reason: .headerAfterEvents)
        }
        try lines.restart(at: position)
        isChecked = true
    }

    /// A line reader's next block, keeping `device`'s events (every one where nil).
    private mutating func step<Scan: CaptureLineScan>(_ scan: inout Scan, device: Int?, into events: inout [InputEvent])
        throws(CaptureError)
    {
        var batch = CaptureBatch(device: device)
        swap(&batch.events, &events)
        defer { swap(&batch.events, &events) }
        if try !scan.step(lines, into: &batch) {
            isFinished = true
            isChecked = true
        }
    }

    /// Every event, in memory: the capture as the readers return it whole.
    public consuming func readAll() throws(CaptureError) -> Capture {
        var events: [InputEvent] = []
        events.reserveCapacity(eventCount ?? 0)
        while !isFinished { try read(into: &events) }
        return Capture(source: source, device: device, events: events, assumptions: assumptions)
    }
}
