import PressureProtocol
import WireInvariants
import XCTest

/// The shared checker of one client's stream finds each broken promise, and only that one, from the bytes
/// a client reads: lines as the daemon writes them (``WireFormat``, ``ServerMessage``), split anywhere.
final class ClientStreamCheckerTests: XCTestCase {
    typealias Rule = WireViolation.Rule

    /// The rules only a client's stream can break (the others are the pipeline's too).
    static let clientRules: Set<Rule> = [
        .notAJSONObject, .undecodableLine, .lineAfterFatal, .timeWentBack, .droppedUnknownContact, .tornLine,
    ]

    func event(_ kind: PressureEvent.Kind, _ contact: UInt64 = 1, device: Int = 1, ms: Int64 = 0) -> String {
        var out: [UInt8] = []
        WireFormat.append(PressureEvent(
            kind: kind, time: Timestamp(microseconds: ms * 1000), device: device, contact: contact, x: 0, y: 0,
            force: 1, maximumPossibleForce: 4, progress: nil), to: &out)
        return String(decoding: out.dropLast(), as: UTF8.self)  // without its newline
    }

    func message(_ m: ServerMessage) -> String {
        var out: [UInt8] = []
        m.append(to: &out)
        return String(decoding: out.last == 0x0a ? out.dropLast() : out[...], as: UTF8.self)
    }

    /// The rules a stream of lines breaks, fed in pieces of `piece` bytes, with the end of the stream's.
    func broken(_ lines: [String], tail: String = "", closedByDaemon: Bool = true, piece: Int = 7) -> [Rule] {
        var checker = ClientStreamChecker(name: "t")
        let bytes = Array(lines.map { $0 + "\n" }.joined().utf8) + Array(tail.utf8)
        var rules: [Rule] = []
        for start in stride(from: 0, to: bytes.count, by: piece) {
            rules += bytes[start..<min(start + piece, bytes.count)].withUnsafeBytes { checker.read($0) }.map(\.rule)
        }
        return rules + checker.finish(closedByDaemon: closedByDaemon).map(\.rule)
    }

    var hello: String { message(.hello(devices: [], settings: PublicSettings(forceTouch: true, sensitivity: .medium))) }

    func testAWholeStreamKeepsEveryPromise() {
        let stream = [
            hello, event(.touch(.began)), event(.touch(.moved), ms: 1), event(.gesture(.peek), ms: 2),
            event(.touch(.began), 2, device: 2, ms: 0), event(.gesture(.pop), ms: 3),
            message(.dropped(DroppedTouches(touches: 3, contacts: [.init(device: 1, contact: 1, moved: 3)]))),
            event(.touch(.ended), ms: 4), event(.touch(.cancelled), 2, device: 2, ms: 1),
            event(.gesture(.longPress), 3, ms: 5),  // a gesture of a contact whose touches it does not hear
            message(.error(ProtocolError(id: nil, code: .tooSlow, message: "bye", fatal: true))),
        ]
        XCTAssertEqual(broken(stream), [])
        XCTAssertEqual(broken(stream, piece: 1), [], "split anywhere")
    }

    func testEachRuleIsFound() {
        let began = event(.touch(.began)), ended = event(.touch(.ended), ms: 9)
        let peek = event(.gesture(.peek), ms: 1)
        let fatal = message(.error(ProtocolError(id: nil, code: .tooSlow, message: "bye", fatal: true)))
        let cases: [(Rule, [String])] = [
            (.notAJSONObject, [hello, "[1,2]"]),
            (.undecodableLine, [#"{"type":"touch","phase":"began"}"#]),
            (.lineAfterFatal, [fatal, hello]),
            (.timeWentBack, [began, event(.touch(.moved), ms: 5), event(.touch(.moved), ms: 4), ended]),
            (.droppedUnknownContact, [message(.dropped(DroppedTouches(touches: 1, contacts: [.init(device: 1, contact: 8, moved: 1)])))]),
            (.beganTwice, [began, began, ended]),
            (.movedWithoutBegan, [event(.touch(.moved))]),
            (.endWithoutBegan, [ended]),
            (.secondPeek, [began, peek, peek, event(.gesture(.dismiss), ms: 2), ended]),
            (.popWithoutPeek, [began, event(.gesture(.pop)), ended]),
            (.dismissWithoutPeek, [began, event(.gesture(.dismiss)), ended]),
            (.contactsNeverEnded, [began]),
            (.peeksNeverEnded, [peek]),
            (.forceAboveMaximum, [began, event(.touch(.moved)).replacingOccurrences(of: #""force":1.0"#, with: #""force":5.0"#), ended]),
        ]
        for (rule, stream) in cases {
            XCTAssertEqual(broken(stream), [rule], rule.rawValue)
        }
        XCTAssertEqual(broken([began], tail: #"{"type":"touch","ph"#, closedByDaemon: false), [.tornLine])
        XCTAssertEqual(broken([began, ended, event(.gesture(.longPress), ms: 9)]), [.eventAfterEnd], "nothing after its end")
        XCTAssertEqual(broken([began, peek, ended]), [.endedWithOpenPeek, .peeksNeverEnded])
        let found = Set(cases.map(\.0)).union([.tornLine, .eventAfterEnd, .endedWithOpenPeek])
        XCTAssertEqual(Self.clientRules.subtracting(found), [], "every rule of a client's stream has a stream that breaks it")
    }

    func testOnlyAStreamTheDaemonClosedMustHaveEndedEverything() {
        XCTAssertEqual(broken([event(.touch(.began)), event(.gesture(.peek))], closedByDaemon: false), [])
    }

    func testAViolationNamesTheStreamTheRuleAndTheLine() {
        var checker = ClientStreamChecker(name: "client 3")
        let line = event(.touch(.moved), 7, device: 2)
        let v = Array((line + "\n").utf8).withUnsafeBytes { checker.read($0) }
        XCTAssertEqual(v.map(\.description), ["client 3: moved without began: " + line])
        var left = ClientStreamChecker(name: "client 4")
        _ = Array((event(.touch(.began), 7, device: 2) + "\n").utf8).withUnsafeBytes { left.read($0) }
        XCTAssertEqual(left.finish(closedByDaemon: true).map(\.description), ["client 4: contacts never ended: device 2: [7]"])
    }
}
