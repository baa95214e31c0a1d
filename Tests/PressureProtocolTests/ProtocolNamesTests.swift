import PressureProtocol
import TestSupport
import XCTest

/// The table of names in `docs/protocol.md` is exactly what the protocol's types hold, each vocabulary
/// both ways: a name the table adds fails here until a type has it, and a case a type adds fails until the
/// table names it. Every client's tests read the same table (`docs/testing.md`).
final class ProtocolNamesTests: XCTestCase {
    /// Every vocabulary of the table, with the names the Swift types give it.
    func swiftNames() -> [String: [String]] {
        [
            "gesture": GestureKind.allCases.map(\.rawValue),
            "message": Self.messageTypes(),
            "phase": PressureEvent.TouchPhase.allCases.map(\.rawValue),
            "events": EventKind.allCases.map(\.rawValue),
            "wants": RegionWants.names.map(\.0),
            "request": ClientRequest.Name.allCases.map(\.rawValue),
            "error": ProtocolError.Code.allCases.map(\.rawValue),
            "reason": Self.reasons.map(\.code),
            "change": ServerMessage.DeviceChange.allCases.map(\.rawValue),
            "kind": DeviceKind.allCases.map(\.rawValue),
            "capability": ForceCapability.allCases.map(\.rawValue),
            "sensitivity": Sensitivity.allCases.map(\.rawValue),
            "source": AverageTouchSource.allCases.map(\.rawValue),
        ]
    }

    /// The `type` of every line the daemon writes other than gestures: one sample of each message (the
    /// samples cover every case, `RoundTripTests`) and the touch events.
    static func messageTypes() -> [String] {
        var types: [String] = []
        let lines = Samples.messages.map(\.line) + Samples.events.filter { $0.gesture == nil }.map(WireFormat.line)
        for line in lines {
            guard let type = (try? JSONParser.parse(line))?["type"]?.stringValue else { continue }
            if !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// One of each reason; the switch has no `default`, so a new case does not compile until it is here.
    static let reasons: [ForceUnavailableReason] = {
        let all: [ForceUnavailableReason] = [
            .noPressure, .turnedOff, .learning(touches: 0, needed: 8), .tooFewLevels(levels: 2), .flat, .pressureIsSize,
            .noHeadroom(top: 1, needed: 2),
        ]
        for reason in all {
            switch reason {
            case .noPressure, .turnedOff, .learning, .tooFewLevels, .flat, .pressureIsSize, .noHeadroom, .other: break
            }
        }
        return all
    }()

    func testEveryVocabularyIsWhatTheTypesHoldBothWays() throws {
        let table = try ProtocolNames.load()
        let swift = swiftNames()
        XCTAssertEqual(Set(table.vocabularies.keys), Set(swift.keys), "the vocabularies of the table and of this test")
        for (vocabulary, names) in table.vocabularies.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(Set(names).count, names.count, "\(vocabulary): a name listed twice")
            let have = swift[vocabulary] ?? []
            for name in names where !have.contains(name) {
                XCTFail("docs/protocol.md names the \(vocabulary) `\(name)`, which the Swift types do not have")
            }
            for name in have where !names.contains(name) {
                XCTFail("the Swift types have the \(vocabulary) `\(name)`, which docs/protocol.md's table does not name")
            }
        }
        XCTAssertTrue(Set(table["gesture"]).isDisjoint(with: table["message"]), "a gesture is not another message")
    }

    /// Whether a gesture takes its touch is the table's column, read by TakenTouches through `takesTouch`.
    func testWhichGesturesTakeATouchIsTheTablesColumn() throws {
        let table = try ProtocolNames.load()
        XCTAssertTrue(table.takingTouch.isSubset(of: table["gesture"]), "only gestures take a touch")
        for g in GestureKind.allCases {
            XCTAssertEqual(g.takesTouch, table.takingTouch.contains(g.rawValue), "\(g) takes a touch")
        }
    }

    /// The table as the clients' tests parse it: rows between the markers, names from the code spans.
    func testTheTableIsRead() throws {
        let doc = """
            <!-- names -->
            | vocabulary | where | names | takes a touch |
            |---|---|---|---|
            | gesture | a gesture's `type` | `peek` | yes |
            | gesture | | `dismiss` | no |
            | phase | a `touch`'s `phase` | `began`, `moved` | |
            <!-- /names -->
            """
        let names = try ProtocolNames(markdown: doc)
        XCTAssertEqual(names.vocabularies, ["gesture": ["peek", "dismiss"], "phase": ["began", "moved"]])
        XCTAssertEqual(names.takingTouch, ["peek"])
        XCTAssertThrowsError(try ProtocolNames(markdown: "no table"))
    }
}
