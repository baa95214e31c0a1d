import PressureCore

/// A capture's bytes as whole lines, read from a ``CaptureByteSource`` a fixed-size chunk at a time so
/// that memory stays flat however long the capture is: a line cut by a chunk's end is moved to the front
/// and completed by the next read, and one longer than ``maximumLineLength`` is refused. Over bytes
/// already in memory it reads and copies nothing: the memory is the buffer.
///
/// ``nextBlock()`` gives every whole line in the buffer, for the evemu, evtest and getevent readers;
/// ``nextLine()`` one numbered line, for the `libinput record` scanner that looks one line ahead. What
/// either returns stays valid until the next call to either (or to ``restart(at:lineNumber:)``).
public final class CaptureLines {
    /// What a file is read in when nothing else is asked for.
    public static let defaultChunkSize = 1 << 16
    /// The longest line taken (give or take a chunk): longer than any line of a capture by far; a file with
    /// a longer one (a disk image, a binary) is not read into memory to find its end.
    public static let maximumLineLength = 1 << 20

    /// One line of ``bytes``: `start..<end`, without its `\n`.
    public struct Line {
        public var start: Int
        public var end: Int
        /// False only for the file's last line when the file does not end in a newline.
        public var hasNewline: Bool
        /// 1-based.
        public var number: Int
        /// Where the line starts in the file.
        public var offset: Int
    }

    /// The file's name, for errors.
    public let file: String
    /// The most read from the source at once.
    public let chunkSize: Int
    private var source: any CaptureByteSource
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private let owned: Bool
    /// `base[start..<end]` is read and not yet handed out; `base[start..<scanned]` holds no newline.
    private var start = 0
    private var end = 0
    private var scanned = 0
    private var atEnd = false
    /// Where `base[0]` is in the file.
    private var bufferOffset = 0
    /// The number of the last line ``nextLine()`` gave.
    public private(set) var lineNumber = 0

    /// Lines read from `source` in chunks of `chunkSize` bytes (at least 1).
    public init(file: String, source: any CaptureByteSource, chunkSize: Int = CaptureLines.defaultChunkSize) {
        self.file = file
        self.source = source
        self.chunkSize = max(1, chunkSize)
        capacity = 2 * self.chunkSize
        base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        owned = true
    }

    /// Lines of bytes already in memory, which must outlive this value: nothing is copied.
    public init(file: String, memory: UnsafeBufferPointer<UInt8>) {
        self.file = file
        source = NoBytes()
        chunkSize = max(1, memory.count)
        if let address = memory.baseAddress {
            base = UnsafeMutablePointer(mutating: address)
            capacity = memory.count
            owned = false
        } else {
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
            capacity = 1
            owned = true
        }
        end = memory.count
        atEnd = true
    }

    deinit {
        if owned { base.deallocate() }
    }

    /// Where in the file the next line (or block) begins.
    public var position: Int { bufferOffset + start }

    /// The buffer the last ``Line`` indexes into.
    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: end) }

    /// Starts again at `offset` in the file, with the line there numbered `lineNumber + 1`.
    public func restart(at offset: Int = 0, lineNumber: Int = 0) throws(CaptureError) {
        self.lineNumber = lineNumber
        if source is NoBytes {
            start = min(max(0, offset), end)
            scanned = start
            return
        }
        try source.seek(to: offset)
        start = 0
        end = 0
        scanned = 0
        atEnd = false
        bufferOffset = offset
    }

    /// Every whole line read and not yet handed out, as one buffer that ends just after a `\n` (or at the
    /// end of the file); nil at the end. Lines are not counted here: the reader counts them, and says how
    /// many it has taken (`linesTaken`) for the error about a line too long to buffer.
    public func nextBlock(after linesTaken: Int = 0) throws(CaptureError) -> UnsafeBufferPointer<UInt8>? {
        while true {
            if start < end {
                var i = end
                while i > scanned, base[i - 1] != 0x0a { i -= 1 }
                if i > scanned || atEnd {
                    let stop = i > scanned ? i : end
                    let block = UnsafeBufferPointer(start: base + start, count: stop - start)
                    start = stop
                    scanned = stop
                    return block
                }
                scanned = end
            } else if atEnd {
                return nil
            }
            try fill(line: linesTaken + 1)
        }
    }

    /// The next line, numbered; nil at the end.
    public func nextLine() throws(CaptureError) -> Line? {
        while true {
            let newline = EvemuEventLine.newline(base, from: scanned, end: end)
            if newline < end || (atEnd && start < end) {
                lineNumber += 1
                let line = Line(
                    start: start, end: newline, hasNewline: newline < end, number: lineNumber,
                    offset: bufferOffset + start)
                start = newline < end ? newline + 1 : end
                scanned = start
                return line
            }
            scanned = end
            if atEnd { return nil }
            try fill(line: lineNumber + 1)
        }
    }

    /// Reads the next chunk after what is kept (the unfinished line, moved to the front).
    private func fill(line: Int) throws(CaptureError) {
        if start > 0 {
            let kept = end - start
            if kept > 0 { UnsafeMutableRawPointer(base).copyMemory(from: base + start, byteCount: kept) }
            bufferOffset += start
            scanned -= start
            end = kept
            start = 0
        }
        // What is kept is one unfinished line.
        guard end < Self.maximumLineLength else {
            throw CaptureError(file: file, line: line, reason: .malformedLine(
                "a line longer than \(Self.maximumLineLength >> 20) MiB: not a capture line"))
        }
        if capacity - end < chunkSize {
            let grown = max(2 * capacity, end + chunkSize)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            bigger.update(from: base, count: end)
            base.deallocate()
            base = bigger
            capacity = grown
        }
        let n = try source.read(into: UnsafeMutableRawBufferPointer(start: base + end, count: chunkSize))
        if n <= 0 { atEnd = true } else { end += min(n, chunkSize) }
    }
}

/// The source of lines over memory: there is nothing more to read.
private struct NoBytes: CaptureByteSource {
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(CaptureError) -> Int { 0 }
    func seek(to offset: Int) throws(CaptureError) {}
}
