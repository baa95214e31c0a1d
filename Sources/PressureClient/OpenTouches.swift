import PressureProtocol

/// The peeks and contacts still open for one connection, so that its end, however it comes, ends each for
/// the app: a daemon killed mid-peek sends neither `dismiss` nor `cancelled` (`docs/protocol.md`, "When
/// the connection ends").
///
/// A peek is open from its `peek` to its `pop` or `dismiss`, a contact from its `began` to its `ended` or
/// `cancelled`; each keeps the last event of its contact, whose state its synthesized end carries.
struct OpenTouches {
    struct Key: Hashable {
        var device: Int
        var contact: UInt64
    }

    /// Open peeks in the order they came, each with the region its `peek` was tagged with.
    private var peeks: [(key: Key, region: String?)] = []
    /// Open contacts in the order they began.
    private var contacts: [Key] = []
    private var last: [Key: PressureEvent] = [:]

    /// An event the daemon sent, in the order it came.
    mutating func saw(_ event: ClientEvent) {
        let e: PressureEvent
        let region: String?
        switch event {
        case .gesture(let g, let tags, _):
            e = g
            region = tags?.region
        case .touch(let t, _):
            e = t
            region = nil
        case .device, .settings, .dropped, .bye, .action, .reconnected, .disconnected, .unknown: return
        }
        let key = Key(device: e.device, contact: e.contact)
        switch e.kind {
        case .gesture(.peek):
            if !peeks.contains(where: { $0.key == key }) { peeks.append((key, region)) }
        case .gesture(.pop), .gesture(.dismiss):
            peeks.removeAll { $0.key == key }
        case .touch(.began):
            if !contacts.contains(key) { contacts.append(key) }
        case .touch(.ended), .touch(.cancelled):
            contacts.removeAll { $0 == key }
        case .gesture(.quickActions), .gesture(.longPress), .touch(.moved):
            break
        }
        if peeks.contains(where: { $0.key == key }) || contacts.contains(key) {
            last[key] = e
        } else {
            last[key] = nil
        }
    }

    /// The synthesized ends of everything still open, every `dismiss` before the first `cancelled`;
    /// nothing is open afterwards.
    mutating func endAll() -> [ClientEvent] {
        var ends: [ClientEvent] = []
        for (key, region) in peeks {
            guard let e = last[key] else { continue }
            ends.append(.gesture(ended(e, as: .gesture(.dismiss)), tags: region.map { RegionTags(region: $0) }, synthesized: true))
        }
        for key in contacts {
            guard let e = last[key] else { continue }
            ends.append(.touch(ended(e, as: .touch(.cancelled)), synthesized: true))
        }
        self = OpenTouches()
        return ends
    }

    /// The contact's last state as an end: no `progress`, the touch being over.
    private func ended(_ e: PressureEvent, as kind: PressureEvent.Kind) -> PressureEvent {
        var end = e
        end.kind = kind
        end.progress = nil
        return end
    }
}
