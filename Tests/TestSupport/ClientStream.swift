import Foundation
import WireInvariants

/// What one client of the daemon got, checked against the promises `docs/protocol.md` makes for every
/// stream by the checker the fuzz targets use too (``ClientStreamChecker``), with the lines kept as
/// Foundation values for the tests' own assertions. Feed it text as it arrives (a line split across reads
/// waits for its end); ``finish()`` says whether the stream ended inside a line.
public struct ClientStream {
    public private(set) var lines: [[String: Any]] = []
    /// Every promise broken, one sentence each.
    public private(set) var problems: [String] = []
    private var checker = ClientStreamChecker(name: "client")

    public init() {}

    /// Contacts (`device:contact`) that began and have not ended.
    public var open: Set<String> { Set(checker.open.map(\.description)) }
    /// Contacts whose peek has not ended (`pop` or `dismiss`).
    public var openPeeks: Set<String> { Set(checker.openPeeks.map(\.description)) }
    public var sawFatal: Bool { checker.sawFatal }

    /// Text read from the socket.
    public mutating func take(_ text: String) {
        var kept: [[String: Any]] = []
        let broken = Array(text.utf8).withUnsafeBytes { bytes in
            checker.read(bytes) { line in
                if let o = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] { kept.append(o) }
            }
        }
        lines += kept
        problems += broken.map(\.description)
    }

    /// The stream ended: a line it was in the middle of is torn.
    public mutating func finish() {
        problems += checker.finish(closedByDaemon: false).map(\.description)
    }

    /// The touch phases of a contact, in order.
    public func phases(of contact: Int) -> [String] {
        lines.filter { $0["contact"] as? Int == contact && $0["type"] as? String == "touch" }
            .compactMap { $0["phase"] as? String }
    }

    /// Every line's `type`, in order.
    public var types: [String] { lines.compactMap { $0["type"] as? String } }

    /// Contacts that began in this stream.
    public var began: Int { lines.filter { $0["phase"] as? String == "began" }.count }
}
