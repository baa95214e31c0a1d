import PressureCore

/// A reader's pass over a capture as blocks of whole lines (``CaptureLines/nextBlock(after:)``), its
/// state kept between blocks: evemu, evtest and getevent logs are read this way, by the same code in both
/// passes of a ``CaptureStream`` and whether the file is in memory (one block) or read a chunk at a time.
protocol CaptureLineScan {
    /// Lines taken so far (the number of the last one).
    var lineNumber: Int { get }

    /// Reads every line of `block`: whole lines, of which only the file's last may lack its `\n`.
    mutating func take<Sink: CaptureEventSink>(_ block: UnsafeBufferPointer<UInt8>, into sink: inout Sink)
        throws(CaptureError)

    /// The file has ended: an error for what it left unfinished.
    mutating func finish() throws(CaptureError)
}

extension CaptureLineScan {
    /// Reads the next block of `lines`; false once the file has ended (and ``finish()`` was called).
    mutating func step<Sink: CaptureEventSink>(_ lines: CaptureLines, into sink: inout Sink) throws(CaptureError)
        -> Bool
    {
        guard let block = try lines.nextBlock(after: lineNumber) else {
            try finish()
            return false
        }
        try take(block, into: &sink)
        return true
    }

    /// Reads the rest of `lines`.
    mutating func run<Sink: CaptureEventSink>(_ lines: CaptureLines, into sink: inout Sink) throws(CaptureError) {
        while try step(lines, into: &sink) {}
    }
}
