import PressureProtocol

/// The promises `docs/protocol.md` makes to each connection, checked on the bytes one client reads off
/// its socket, slow readers, full queues and connections that end included; for the tests (through
/// XCTest, `Tests/TestSupport/ClientStream.swift`) and the fuzz targets (through an abort) alike.
///
/// Per line: a whole JSON object that decodes as an event or a message; nothing after a fatal error;
/// an event's values within bounds (``WireInvariantChecker``'s value rules); `time` never going back on a
/// device. Per contact (`device:contact`): its touch events between one `began` and one `ended` or
/// `cancelled`, and nothing of it after that end (a client whose touch stream stopped while a finger was
/// down hears no more of that finger); one `pop` or `dismiss` for each `peek` it was sent, none for
/// another, and before the contact's end; a `dropped` notice names only contacts it saw begin. At the end of the stream: no line torn,
/// and, where the daemon closed the connection after its last lines (or everything the client heard of
/// has ended), no contact and no peek still open.
///
/// Unlike ``WireInvariantChecker`` it knows nothing of a pipeline's order of gestures (a client that
/// joins mid-peek, or hears gestures without touches, sees a part of it), only what each client may rely
/// on.
public struct ClientStreamChecker: Sendable {
    public let name: String
    /// Contacts it saw begin and not end.
    public private(set) var open: Set<WireContact> = []
    /// Peeks it was sent and not their `pop` or `dismiss`.
    public private(set) var openPeeks: Set<WireContact> = []
    /// It was sent a fatal error.
    public private(set) var sawFatal = false
    private var ended: Set<WireContact> = []
    private var lastTime: [Int: Timestamp] = [:]
    private var partial: [UInt8] = []

    public init(name: String) { self.name = name }

    /// Bytes the client read, in order: the rules its complete lines break (a line split across reads
    /// waits for its end). `each` is given every complete line, without its newline, for a caller that
    /// keeps what was read.
    public mutating func read(
        _ bytes: UnsafeRawBufferPointer, each: (ArraySlice<UInt8>) -> Void = { _ in }
    ) -> [WireViolation] {
        partial.append(contentsOf: bytes)
        guard let end = partial.lastIndex(of: 0x0a) else { return [] }
        var broken: [WireViolation] = []
        var start = 0
        for i in 0...end where partial[i] == 0x0a {
            each(partial[start..<i])
            broken += line(Array(partial[start..<i]))
            start = i + 1
        }
        partial.removeSubrange(0...end)
        return broken
    }

    /// The stream ended: a line it was inside is torn. `closedByDaemon`: the daemon closed it once its
    /// last lines were written (or every device the client heard is gone), so every contact it saw begin
    /// and every peek it was sent must have ended.
    public mutating func finish(closedByDaemon: Bool) -> [WireViolation] {
        var broken: [WireViolation] = []
        if !partial.isEmpty {
            broken.append(WireViolation(rule: .tornLine, stream: name, line: String(decoding: partial, as: UTF8.self)))
            partial.removeAll()
        }
        guard closedByDaemon else { return broken }
        for (rule, set) in [(WireViolation.Rule.contactsNeverEnded, open), (.peeksNeverEnded, openPeeks)] {
            for device in Set(set.map(\.device)).sorted() {
                let contacts = set.filter { $0.device == device }.map(\.contact).sorted()
                broken.append(WireViolation(rule: rule, stream: name, contacts: contacts, device: device))
            }
        }
        return broken
    }

    private mutating func line(_ bytes: [UInt8]) -> [WireViolation] {
        let text = String(decoding: bytes, as: UTF8.self)
        func violation(_ rule: WireViolation.Rule) -> WireViolation {
            WireViolation(rule: rule, stream: name, line: text)
        }
        guard let value = try? JSONParser.parse(bytes), value.objectMembers != nil else { return [violation(.notAJSONObject)] }
        var broken: [WireViolation] = []
        if sawFatal { broken.append(violation(.lineAfterFatal)) }
        let type = value["type"]?.stringValue ?? ""
        guard type == "touch" || GestureKind(rawValue: type) != nil else {
            switch try? ServerMessage(json: value) {
            case nil:
                broken.append(violation(.undecodableLine))
            case .error(let e)?:
                if e.fatal { sawFatal = true }
            case .dropped(let d)?:
                let unknown = d.contacts.map { WireContact(device: $0.device, contact: $0.contact) }
                    .filter { !open.contains($0) && !ended.contains($0) }
                if !unknown.isEmpty { broken.append(violation(.droppedUnknownContact)) }
            default:
                break
            }
            return broken
        }
        guard let e = try? PressureEvent(json: value) else { return broken + [violation(.undecodableLine)] }
        var rules = WireInvariantChecker.valueRules(e)
        if let t = lastTime[e.device], e.time < t { rules.append(.timeWentBack) }
        lastTime[e.device] = e.time
        let key = WireContact(device: e.device, contact: e.contact)
        if ended.contains(key) { rules.append(.eventAfterEnd) }
        switch e.kind {
        case .gesture(.peek):
            if !openPeeks.insert(key).inserted { rules.append(.secondPeek) }
        case .gesture(.pop):
            if openPeeks.remove(key) == nil { rules.append(.popWithoutPeek) }
        case .gesture(.dismiss):
            if openPeeks.remove(key) == nil { rules.append(.dismissWithoutPeek) }
        case .gesture(.quickActions), .gesture(.longPress):
            break
        case .touch(.began):
            if !open.insert(key).inserted { rules.append(.beganTwice) }
        case .touch(.moved):
            if !open.contains(key) { rules.append(.movedWithoutBegan) }
        case .touch(.ended), .touch(.cancelled):
            if open.remove(key) == nil { rules.append(.endWithoutBegan) }
            if openPeeks.contains(key) { rules.append(.endedWithOpenPeek) }
            ended.insert(key)
        }
        return broken + rules.map { WireViolation(rule: $0, stream: name, event: e, line: text) }
    }
}
