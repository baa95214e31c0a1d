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
    /// The lines, encoded.
    private(set) var bytes: [UInt8] = []
    /// Where each line ends in ``bytes``.
    private(set) var ends: [Int] = []
    /// Each `moved` line's contact (none for a single line, whose kind goes with it to ``LineFanout``).
    private(set) var keys: [ContactKey] = []

    var isEmpty: Bool { ends.isEmpty }
    var lineCount: Int { ends.count }

    /// Storage kept between frames: a run of up to `lines` lines allocates nothing.
    mutating func reserve(lines: Int) {
        bytes.reserveCapacity(4096)
        ends.reserveCapacity(lines)
        keys.reserveCapacity(lines)
    }

    /// Whether a `moved` of `device` joins the run: it is empty, or holds that device's lines.
    func admits(device d: Int) -> Bool { ends.isEmpty || device == d }

    /// Encodes a touch's `moved` at the end of the run.
    mutating func appendMoved(_ e: PressureEvent) {
        device = e.device
        WireFormat.append(e, to: &bytes)
        ends.append(bytes.count)
        keys.append(e.contactKey)
    }

    /// Encodes `line` at the end of the run.
    mutating func append(_ line: ClientTable.Line) {
        line.append(to: &bytes)
        ends.append(bytes.count)
    }

    /// Where line `j` starts in ``bytes``.
    func start(of j: Int) -> Int { j == 0 ? 0 : ends[j - 1] }

    /// Empty again, its storage kept.
    mutating func removeAll() {
        bytes.removeAllKeepingCapacity()
        ends.removeAllKeepingCapacity()
        keys.removeAllKeepingCapacity()
    }
}
