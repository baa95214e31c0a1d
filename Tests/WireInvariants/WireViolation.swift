import PressureProtocol

/// A promise of the wire format (docs/protocol.md) that an event stream broke: which one, and the event
/// that broke it (nil for what only the end of a stream shows). Tests turn each into a test failure, the
/// fuzz targets into an abort, so libFuzzer keeps the input.
public struct WireViolation: Hashable, Sendable, CustomStringConvertible {
    /// The promises, each worded as what was seen.
    public enum Rule: String, Hashable, Sendable, CaseIterable {
        case nonFiniteForce = "non-finite force"
        case negativeForce = "negative force"
        case forceAboveMaximum = "force above maximumPossibleForce"
        case forceWithoutCapability = "force without force capability"
        case progressOutOfRange = "progress outside 0...1"
        case nonFiniteScreenPosition = "non-finite screen position"
        case eventAfterEnd = "event after contact ended"
        case beganTwice = "contact began twice"
        case movedWithoutBegan = "moved without began"
        case endWithoutBegan = "end without began"
        case endedWithOpenPeek = "contact ended with an open peek"
        case peekWhileUp = "peek of a contact not down"
        case secondPeek = "second peek"
        case peekAfterPop = "peek after pop"
        case popWithoutPeek = "pop without peek"
        case secondPop = "second pop"
        case dismissWithoutPeek = "dismiss without an open peek"
        case quickActionsWithoutPeek = "quick actions without an open peek"
        case longPressWhileUp = "long press of a contact not down"
        case longPressWhilePeeking = "long press while peeking"
        case contactsNeverEnded = "contacts never ended"
        case peeksNeverEnded = "peeks never ended"
        // What one client reads off its socket (``ClientStreamChecker``), besides the rules above.
        case notAJSONObject = "not a JSON object"
        case undecodableLine = "a line that does not decode as an event or message"
        case lineAfterFatal = "a line after the fatal error"
        case timeWentBack = "time went back on the device"
        case droppedUnknownContact = "a dropped notice names a contact not seen begin"
        case tornLine = "the stream ended inside a line"
    }

    public var rule: Rule
    /// The stream's name, as the checker was given it (a capture's file, a fuzz target).
    public var stream: String
    /// The event that broke the rule; nil for the end-of-stream rules.
    public var event: PressureEvent?
    /// For the end-of-stream rules: the contacts concerned, in order.
    public var contacts: [UInt64]
    /// For the end-of-stream rules of a client's stream: the device of ``contacts``.
    public var device: Int?
    /// For the rules of a client's stream about a line: the line (at most 200 bytes of it).
    public var line: String?

    public init(
        rule: Rule, stream: String, event: PressureEvent? = nil, contacts: [UInt64] = [], device: Int? = nil,
        line: String? = nil
    ) {
        self.rule = rule
        self.stream = stream
        self.event = event
        self.contacts = contacts
        self.device = device
        self.line = line.map { String($0.prefix(200)) }
    }

    public var description: String {
        if let line { return "\(stream): \(rule.rawValue): \(line)" }
        if let event { return "\(stream): \(rule.rawValue): contact \(event.contact): \(event)" }
        if let device { return "\(stream): \(rule.rawValue): device \(device): \(contacts)" }
        return "\(stream): \(rule.rawValue): \(contacts)"
    }
}
