import PressureProtocol

/// The promises the wire format makes to apps (docs/protocol.md), checked event by event, for the tests
/// (through XCTest) and the fuzz targets (through an abort) alike: one set of rules, reported as values.
///
/// Per event: force finite, within `0...maximumPossibleForce`, and 0 without force capability; progress
/// within 0...1; a finite screen position. Per contact: `began` once, then `moved`, then one `ended` or
/// `cancelled`, and nothing after; at most one peek, which ends in one pop or dismiss before the contact
/// does (quick actions only while it is open); no peek after a pop; a long press only while down and not
/// peeking. At the end of a stream (after the pipeline cancelled what was left): no contact and no peek
/// still open.
public struct WireInvariantChecker: Sendable {
    public let name: String
    /// Whether the pipeline emits `touch` events. Without them (a gestures-only pipeline) a contact is
    /// known from its first gesture, and its end cannot be seen, so only the gesture rules are checked.
    public let touches: Bool

    private var open: Set<UInt64> = []
    private var ended: Set<UInt64> = []
    private var peeking: Set<UInt64> = []
    private var popped: Set<UInt64> = []

    public init(name: String, touches: Bool = true) {
        self.name = name
        self.touches = touches
    }

    /// One output event: the rules it breaks, in the order above (empty when it keeps them all).
    public mutating func see(_ e: PressureEvent) -> [WireViolation] {
        var broken = Self.valueRules(e)
        if ended.contains(e.contact) { broken.append(.eventAfterEnd) }
        if !touches, case .gesture = e.kind { open.insert(e.contact) }
        switch e.kind {
        case .touch(.began):
            if !open.insert(e.contact).inserted { broken.append(.beganTwice) }
        case .touch(.moved):
            if !open.contains(e.contact) { broken.append(.movedWithoutBegan) }
        case .touch(.ended), .touch(.cancelled):
            if open.remove(e.contact) == nil { broken.append(.endWithoutBegan) }
            if peeking.contains(e.contact) { broken.append(.endedWithOpenPeek) }
            ended.insert(e.contact)
        case .gesture(.peek):
            if !open.contains(e.contact) { broken.append(.peekWhileUp) }
            if !peeking.insert(e.contact).inserted { broken.append(.secondPeek) }
            if popped.contains(e.contact) { broken.append(.peekAfterPop) }
        case .gesture(.pop):
            if peeking.remove(e.contact) == nil { broken.append(.popWithoutPeek) }
            if !popped.insert(e.contact).inserted { broken.append(.secondPop) }
        case .gesture(.dismiss):
            if peeking.remove(e.contact) == nil { broken.append(.dismissWithoutPeek) }
        case .gesture(.quickActions):
            if !peeking.contains(e.contact) { broken.append(.quickActionsWithoutPeek) }
        case .gesture(.longPress):
            if !open.contains(e.contact) { broken.append(.longPressWhileUp) }
            if peeking.contains(e.contact) { broken.append(.longPressWhilePeeking) }
        }
        return broken.map { WireViolation(rule: $0, stream: name, event: e) }
    }

    /// The rules of one event's values, whatever came before it (force, progress, screen position):
    /// the pipeline's outputs and each client's stream keep them alike.
    static func valueRules(_ e: PressureEvent) -> [WireViolation.Rule] {
        var broken: [WireViolation.Rule] = []
        if !e.force.isFinite || !e.maximumPossibleForce.isFinite {
            broken.append(.nonFiniteForce)
        } else {
            if e.force < 0 { broken.append(.negativeForce) }
            if e.force > e.maximumPossibleForce + 1e-9 { broken.append(.forceAboveMaximum) }
            if e.maximumPossibleForce == 0, e.force != 0 { broken.append(.forceWithoutCapability) }
        }
        if let p = e.progress, !(0...1).contains(p) { broken.append(.progressOutOfRange) }
        if !e.screenX.isFinite || !e.screenY.isFinite { broken.append(.nonFiniteScreenPosition) }
        return broken
    }

    /// At the end of a stream: every contact ended, every peek ended (nothing to say without touches).
    public func finish() -> [WireViolation] {
        guard touches else { return [] }
        var result: [WireViolation] = []
        if !open.isEmpty { result.append(WireViolation(rule: .contactsNeverEnded, stream: name, contacts: open.sorted())) }
        if !peeking.isEmpty { result.append(WireViolation(rule: .peeksNeverEnded, stream: name, contacts: peeking.sorted())) }
        return result
    }
}
