import PressureProtocol
import PressureCore

/// A frame's touch `moved` lines of one device, encoded one after another, waiting to go to the device's
/// touch subscribers in one pass over the clients (``ClientTable/sendRun(_:)``).
///
/// Why: a frame of ten moving contacts is ten lines for the same clients. Sent line by line, every line
/// asked every client whether it is a recipient, whether it shares lines and has room there, and marked
/// it writable: about 85 instructions a line and client (callgrind, `tools/bench-frame-cost`), most of a
/// frame at 64 subscribers. A run asks a client that keeps up once a frame.
struct MovedRun: Sendable {
    /// The device whose lines these are.
    private(set) var device = 0
    /// The lines, encoded.
    private(set) var bytes: [UInt8] = []
    /// Where each line ends in ``bytes``.
    private(set) var ends: [Int] = []
    /// Each line's contact.
    private(set) var keys: [ContactKey] = []

    var isEmpty: Bool { ends.isEmpty }
    var lineCount: Int { ends.count }

    /// Storage for a frame of ten contacts, kept between frames: gathering allocates nothing.
    mutating func reserve() {
        bytes.reserveCapacity(4096)
        ends.reserveCapacity(32)
        keys.reserveCapacity(32)
    }

    /// Whether a `moved` of `device` joins the run: it is empty, or holds that device's lines.
    func admits(device d: Int) -> Bool { ends.isEmpty || device == d }

    /// Encodes the event at the end of the run.
    mutating func append(_ e: PressureEvent) {
        device = e.device
        WireFormat.append(e, to: &bytes)
        ends.append(bytes.count)
        keys.append(e.contactKey)
    }

    /// Where line `j` starts in ``bytes``.
    func start(of j: Int) -> Int { j == 0 ? 0 : ends[j - 1] }

    /// Empty again, its storage kept.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
    }
}
