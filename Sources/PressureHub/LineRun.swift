import PressureCore

/// Lines encoded one after another, waiting to go to the clients in one fan-out (``LineFanout``): a
/// frame's touch `moved` lines of one device, gathered, or a single line.
///
/// Why: a frame of ten moving contacts is ten lines for the same clients. Sent line by line, every line
/// would ask every client whether it is a recipient, whether it shares lines and has room there, and
/// mark it writable; as a run, a client that keeps up is asked once a frame.
struct LineRun: Sendable {
    /// The device whose lines these are.
    private(set) var device = 0
    /// The lines, encoded, in the first ``byteCount`` bytes; the rest is room kept between frames, into
    /// which a line is encoded where it goes (``WireFormat/write(_:into:)``) rather than into a buffer of
    /// its own first and copied: a copy and a uniqueness check a line less, which under software emulation
    /// (the VM the live path is measured in) weighed more than their instructions (`docs/performance.md`).
    private var storage: [UInt8] = []
    /// Bytes of ``storage`` holding lines.
    private(set) var byteCount = 0
    /// A line that is not an event, encoded here first: messages have no bound to make room for.
    private var scratch: [UInt8] = []
    /// Where each line ends in the bytes.
    private(set) var ends: [Int] = []
    /// Each `moved` line's contact (none for a single line, whose kind goes with it to ``LineFanout``).
    private(set) var keys: [ContactKey] = []

    var isEmpty: Bool { ends.isEmpty }
    var lineCount: Int { ends.count }

    /// Storage kept between frames: a run of up to `lines` lines allocates nothing.
    mutating func reserve(lines: Int) {
        makeRoom(4096)
        scratch.reserveCapacity(WireFormat.lineCapacity)
        ends.reserveCapacity(lines)
        keys.reserveCapacity(lines)
    }

    /// Whether a `moved` of `device` joins the run: it is empty, or holds that device's lines.
    func admits(device d: Int) -> Bool { ends.isEmpty || device == d }

    /// Encodes a touch's `moved` at the end of the run.
    mutating func appendMoved(_ e: PressureEvent) {
        device = e.device
        appendEvent(e)
        keys.append(e.contactKey)
    }

    /// Encodes `line` at the end of the run.
    mutating func append(_ line: ClientTable.Line) {
        if case .event(let e) = line {
            appendEvent(e)
            return
        }
        scratch.removeAllKeepingCapacity()
        line.append(to: &scratch)
        makeRoom(scratch.count)
        storage.replaceSubrange(byteCount..<byteCount + scratch.count, with: scratch)
        byteCount += scratch.count
        ends.append(byteCount)
    }

    /// The lines' bytes, lent to `body`.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<byteCount])) }
    }

    /// Where line `j` starts in the bytes.
    func start(of j: Int) -> Int { j == 0 ? 0 : ends[j - 1] }

    /// Empty again, its storage kept.
    mutating func removeAll() {
        byteCount = 0
        ends.removeAllKeepingCapacity()
        keys.removeAllKeepingCapacity()
    }

    private mutating func appendEvent(_ e: PressureEvent) {
        makeRoom(WireFormat.lineCapacity)
        let at = byteCount
        byteCount += storage.withUnsafeMutableBufferPointer { room in
            guard let base = room.baseAddress else { return 0 }  // never: room was made
            return WireFormat.write(e, into: base + at)
        }
        ends.append(byteCount)
    }

    /// At least `count` bytes of room after the lines; the storage doubles when it grows, so a run
    /// allocates only when it is longer than every run before.
    private mutating func makeRoom(_ count: Int) {
        let missing = byteCount + count - storage.count
        if missing > 0 { storage.append(contentsOf: repeatElement(0, count: max(missing, storage.count))) }
    }
}
