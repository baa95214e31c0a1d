import Foundation

/// What one client of the daemon got, checked against the promises `docs/protocol.md` makes for every
/// stream, slow readers and connections that end included: each line a whole JSON object; a contact's
/// touch events between its one `began` and its one `ended`/`cancelled`; a `pop` or `dismiss` only after
/// a `peek`, and one per peek; times that never go back on a device; nothing after a fatal error. Feed it text as it arrives (a line split across reads waits for
/// its end); ``finish()`` says whether the stream ended inside a line.
public struct ClientStream {
    public private(set) var lines: [[String: Any]] = []
    /// Contacts (`device:contact`) that began and have not ended.
    public private(set) var open: Set<String> = []
    /// Contacts whose peek has not ended (`pop` or `dismiss`).
    public private(set) var openPeeks: Set<String> = []
    /// Every promise broken, one sentence each.
    public private(set) var problems: [String] = []
    public private(set) var sawFatal = false
    private var ended: Set<String> = []
    private var lastTime: [Int: Double] = [:]
    private var partial = ""

    public init() {}

    /// Text read from the socket.
    public mutating func take(_ text: String) {
        partial += text
        guard let end = partial.lastIndex(of: "\n") else { return }
        let whole = partial[...end]
        partial = String(partial[partial.index(after: end)...])
        for raw in whole.split(separator: "\n") { line(String(raw)) }
    }

    /// The stream ended: a line it was in the middle of is torn.
    public mutating func finish() {
        if !partial.isEmpty { problems.append("the stream ended inside a line: \(partial.prefix(80))") }
        partial = ""
    }

    private mutating func line(_ raw: String) {
        guard let o = (try? JSONSerialization.jsonObject(with: Data(raw.utf8))) as? [String: Any] else {
            problems.append("not a JSON object: \(raw.prefix(200))")
            return
        }
        if sawFatal { problems.append("after the fatal error: \(raw)") }
        lines.append(o)
        if o["fatal"] as? Bool == true { sawFatal = true }
        guard let device = o["device"] as? Int, let contact = o["contact"] as? Int, let time = o["time"] as? Double
        else { return }
        if let t = lastTime[device], time < t { problems.append("time went back: \(raw)") }
        lastTime[device] = time
        let key = "\(device):\(contact)"
        if ended.contains(key) { problems.append("after the contact's end: \(raw)") }
        switch o["type"] as? String {
        case "peek": if !openPeeks.insert(key).inserted { problems.append("a second peek: \(raw)") }
        case "pop", "dismiss": if openPeeks.remove(key) == nil { problems.append("no peek to end: \(raw)") }
        default: break
        }
        switch o["phase"] as? String {
        case "began": if !open.insert(key).inserted { problems.append("began twice: \(raw)") }
        case "moved": if !open.contains(key) { problems.append("moved without began: \(raw)") }
        case "ended", "cancelled":
            if open.remove(key) == nil { problems.append("end without began: \(raw)") }
            ended.insert(key)
        default: break
        }
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
