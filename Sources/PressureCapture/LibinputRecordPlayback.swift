import PressureCore

/// The second pass over a `libinput record` file: back to each `events:` block of the chosen device that
/// the first pass noted (``LibinputRecordStructure/EventsStart``), and through it, a batch of events at a time.
/// The rest of the file was checked by the first pass and is not read again.
struct LibinputRecordPlayback {
    let starts: [LibinputRecordReader.EventsStart]
    private var next = 0
    private var walking: (parser: LibinputRecordReader.Parser, walk: LibinputRecordReader.EventsWalk)?

    init(_ starts: [LibinputRecordReader.EventsStart]) {
        self.starts = starts
    }

    /// Appends at least `count` events to `events` where that many are left; returns false once every
    /// block has been walked through.
    mutating func read(_ lines: CaptureLines, into events: inout [InputEvent], atLeast count: Int)
        throws(CaptureError) -> Bool
    {
        var added = 0
        while added < count {
            guard var (parser, walk) = try walker(lines) else { return false }
            do throws(CaptureError) {
                while added < count, let e = try parser.nextEvent(&walk) {
                    events.append(e)
                    added += 1
                }
            } catch {
                throw parser.s.failure ?? error
            }
            if let failure = parser.s.failure { throw failure }
            if case .done = walk {
                walking = nil
                next += 1
            } else {
                walking = (parser, walk)
            }
        }
        return true
    }

    /// The walk under way, or one at the start of the next block; nil when none is left.
    private mutating func walker(_ lines: CaptureLines) throws(CaptureError)
        -> (parser: LibinputRecordReader.Parser, walk: LibinputRecordReader.EventsWalk)?
    {
        if let w = walking {
            walking = nil
            return w
        }
        guard next < starts.count else { return nil }
        let start = starts[next]
        try lines.restart(at: start.offset, lineNumber: start.line - 1)
        var parser = LibinputRecordReader.Parser(lines: lines, wanted: nil)
        guard var line = parser.s.current, line.number == start.line, line.start + start.column < line.end else {
            throw parser.s.failure ?? CaptureError(file: lines.file, line: start.line, reason: .malformedLine(
                "the file changed after it was first read: `events:` is no longer here"))
        }
        line.content = line.start + start.column
        parser.s.replaceCurrent(line)
        guard let kv = parser.s.keyValue(line), parser.s.key(kv, is: "events") else {
            throw CaptureError(file: lines.file, line: start.line, reason: .malformedLine(
                "the file changed after it was first read: `events:` is no longer here"))
        }
        return (parser, .start(line, kv))
    }
}
