import PressureProtocol
import WireInvariants
import XCTest

/// The shared checker finds each broken promise, and only that one: a stream that breaks a rule is
/// reported with it, the same stream kept whole is not.
final class WireInvariantCheckerTests: XCTestCase {
    typealias Rule = WireViolation.Rule

    func event(_ kind: PressureEvent.Kind, _ contact: UInt64 = 1, force: Double = 1, max: Double = 4,
               progress: Double? = nil, screenX: Double = 0) -> PressureEvent {
        PressureEvent(kind: kind, time: Timestamp(microseconds: 0), device: 1, contact: contact, x: 0, y: 0,
                      screenX: screenX, force: force, maximumPossibleForce: max, progress: progress)
    }

    /// The rules a stream breaks, in order, with the end of the stream's.
    func broken(_ events: [PressureEvent], touches: Bool = true) -> [Rule] {
        var checker = WireInvariantChecker(name: "t", touches: touches)
        return events.flatMap { checker.see($0) }.map(\.rule) + checker.finish().map(\.rule)
    }

    func testAWholeStreamKeepsEveryPromise() {
        let stream = [
            event(.touch(.began)), event(.touch(.moved), progress: 0.5), event(.gesture(.peek)),
            event(.gesture(.quickActions)), event(.gesture(.dismiss)), event(.touch(.ended)),
            event(.touch(.began), 2), event(.gesture(.longPress), 2), event(.gesture(.peek), 2),
            event(.gesture(.pop), 2), event(.touch(.cancelled), 2),
            event(.touch(.began), 3, force: 0, max: 0), event(.touch(.ended), 3, force: 0, max: 0),
        ]
        XCTAssertEqual(broken(stream), [])
    }

    func testEachRuleIsFound() {
        let began = event(.touch(.began))
        let peek = event(.gesture(.peek))
        let cases: [(Rule, [PressureEvent])] = [
            (.nonFiniteForce, [began, event(.touch(.moved), force: .nan), event(.touch(.ended))]),
            (.negativeForce, [began, event(.touch(.moved), force: -0.5), event(.touch(.ended))]),
            (.forceAboveMaximum, [began, event(.touch(.moved), force: 4.1), event(.touch(.ended))]),
            (.progressOutOfRange, [began, event(.touch(.moved), progress: 1.5), event(.touch(.ended))]),
            (.nonFiniteScreenPosition, [began, event(.touch(.moved), screenX: .infinity), event(.touch(.ended))]),
            (.beganTwice, [began, began, event(.touch(.ended))]),
            (.movedWithoutBegan, [event(.touch(.moved))]),
            (.endWithoutBegan, [event(.touch(.ended))]),
            (.peekWhileUp, [peek, event(.gesture(.dismiss))]),
            (.secondPeek, [began, peek, peek, event(.gesture(.dismiss)), event(.touch(.ended))]),
            (.popWithoutPeek, [began, event(.gesture(.pop)), event(.touch(.ended))]),
            (.dismissWithoutPeek, [began, event(.gesture(.dismiss)), event(.touch(.ended))]),
            (.quickActionsWithoutPeek, [began, event(.gesture(.quickActions)), event(.touch(.ended))]),
            (.longPressWhileUp, [event(.gesture(.longPress))]),
            (.contactsNeverEnded, [began]),
        ]
        for (rule, stream) in cases {
            XCTAssertEqual(broken(stream), [rule], rule.rawValue)
        }
        // Rules that come with others, as the streams that break them must.
        XCTAssertEqual(broken([began, event(.touch(.moved), force: 1, max: 0), event(.touch(.ended))]),
                       [.forceAboveMaximum, .forceWithoutCapability])
        XCTAssertEqual(broken([began, event(.touch(.ended)), event(.touch(.moved))]), [.eventAfterEnd, .movedWithoutBegan])
        XCTAssertEqual(broken([began, peek, event(.touch(.ended))]), [.endedWithOpenPeek, .peeksNeverEnded])
        XCTAssertEqual(broken([began, peek, event(.gesture(.pop)), peek, event(.touch(.ended))]),
                       [.peekAfterPop, .endedWithOpenPeek, .peeksNeverEnded])
        XCTAssertEqual(broken([began, peek, event(.gesture(.pop)), event(.gesture(.pop)), event(.touch(.ended))]),
                       [.popWithoutPeek, .secondPop])
        XCTAssertEqual(broken([began, peek, event(.gesture(.longPress)), event(.gesture(.dismiss)), event(.touch(.ended))]),
                       [.longPressWhilePeeking])
        let found = Set(cases.map(\.0)).union([
            .forceWithoutCapability, .eventAfterEnd, .endedWithOpenPeek, .peeksNeverEnded, .peekAfterPop, .secondPop,
            .longPressWhilePeeking,
        ])
        XCTAssertEqual(Set(Rule.allCases).subtracting(found).subtracting(ClientStreamCheckerTests.clientRules), [],
                       "every rule has a stream that breaks it")
    }

    /// Without touch events a contact is known from its first gesture and its end is never seen.
    func testAGesturesOnlyStreamIsCheckedForItsGestures() {
        XCTAssertEqual(broken([event(.gesture(.peek)), event(.gesture(.pop))], touches: false), [])
        XCTAssertEqual(broken([event(.gesture(.peek))], touches: false), [], "the end cannot be seen")
        XCTAssertEqual(broken([event(.gesture(.pop))], touches: false), [.popWithoutPeek])
    }

    func testAViolationNamesTheStreamTheRuleAndTheEvent() {
        var checker = WireInvariantChecker(name: "demo.evemu")
        let v = checker.see(event(.touch(.moved), 7))
        XCTAssertEqual(v.map(\.rule), [.movedWithoutBegan])
        XCTAssertTrue(v[0].description.hasPrefix("demo.evemu: moved without began: contact 7: "), v[0].description)
        XCTAssertEqual(checker.finish().map(\.description), [])
    }
}
