import XCTest

@testable import PressureProtocol

/// Every message type encoded, decoded and compared: what the daemon writes, a Swift client reads back
/// as the same value, and what a client writes, the daemon's parser reads back as the same request.
final class RoundTripTests: XCTestCase {
    func testEveryServerMessageRoundTrips() throws {
        for message in Samples.messages {
            var bytes: [UInt8] = []
            message.append(to: &bytes)
            XCTAssertEqual(bytes.last, 0x0A, message.line)
            let decoded = try ServerMessage(line: Array(bytes.dropLast()))
            XCTAssertEqual(decoded, message, message.line)
            XCTAssertEqual(decoded.line, message.line, "encoding the decoded value gives the same bytes")
        }
    }

    /// The samples hold every case of ServerMessage, of its replies and of the region replies: the
    /// switches below have no `default`, so a new case does not compile until it is sampled here.
    func testTheSamplesCoverEveryMessageKind() {
        func kind(_ m: ServerMessage) -> String {
            switch m {
            case .hello: return "hello"
            case .reply(_, let r):
                switch r {
                case .subscribe: return "reply subscribe"
                case .devices: return "reply devices"
                case .ping: return "reply ping"
                case .status: return "reply status"
                case .set: return "reply set"
                case .reload: return "reply reload"
                case .resetLearning: return "reply resetLearning"
                }
            case .error: return "error"
            case .device: return "device"
            case .settings: return "settings"
            case .dropped: return "dropped"
            case .bye: return "bye"
            case .regionReply(_, let r):
                switch r {
                case .setRegion: return "reply setRegion"
                case .removeRegion: return "reply removeRegion"
                case .setQuickActions: return "reply setQuickActions"
                case .chooseAction: return "reply chooseAction"
                }
            case .action: return "action"
            }
        }
        let requests = ClientRequest.knownRequests.split(separator: ",").map { "reply " + $0.filter { $0 != " " } }
        XCTAssertEqual(
            Set(Samples.messages.map(kind)),
            Set(["hello", "error", "device", "settings", "dropped", "bye", "action"] + requests))
        XCTAssertEqual(Set(Samples.requests.map(\.name)), Set(requests.map { String($0.dropFirst(6)) }))
        XCTAssertEqual(Set(Samples.events.map(\.kind)).count, GestureKind.allCases.count + 4)
    }

    func testEveryRequestRoundTripsThroughTheDaemonsParser() throws {
        for (i, request) in Samples.requests.enumerated() {
            for id in Samples.ids {
                let line = request.line(id: id)
                switch ClientRequest.parse(line: line) {
                case .success(let parsed):
                    XCTAssertEqual(parsed.request, request, line)
                    XCTAssertEqual(parsed.id, id, line)
                case .failure(let error):
                    XCTFail("\(i): \(line): \(error)")
                }
                var bytes: [UInt8] = []
                request.append(id: id, to: &bytes)
                XCTAssertEqual(bytes, Array((line + "\n").utf8))
            }
        }
    }

    func testEveryEventRoundTrips() throws {
        for event in Samples.events {
            let line = WireFormat.line(event)
            let value = try JSONParser.parse(line)
            XCTAssertEqual(try PressureEvent(json: value), event, line)
            XCTAssertNil(try RegionTags(json: value), "an event to every subscriber has no region")
        }
    }

    func testRoutedGesturesRoundTripWithTheirTags() throws {
        let event = try XCTUnwrap(Samples.events.first { $0.gesture == .quickActions })
        for tags in Samples.tags {
            var bytes: [UInt8] = []
            ServerMessage.appendRouted(event, region: tags.region, app: tags.app, items: tags.items, to: &bytes)
            let value = try JSONParser.parse(Array(bytes.dropLast()))
            XCTAssertEqual(try PressureEvent(json: value), event)
            XCTAssertEqual(try RegionTags(json: value), tags)
        }
    }

    /// A reason the daemon builds carries numbers a client cannot rebuild from its code: it comes back
    /// as its code and explanation, and encodes to the same bytes.
    func testADaemonsReasonComesBackAsItsWords() throws {
        var status = Samples.learningForce
        status.reason = .noHeadroom(top: 1.2, needed: 2.5)
        var bytes: [UInt8] = []
        status.append(to: &bytes)
        let decoded = try DeviceForceStatus(json: try JSONParser.parse(bytes))
        XCTAssertEqual(decoded.reason, .other(code: "no-headroom", explanation: status.reason?.explanation ?? ""))
        var again: [UInt8] = []
        decoded.append(to: &again)
        XCTAssertEqual(again, bytes)
        XCTAssertEqual(decoded.summary, status.summary)
    }

    func testLinesOfTheOtherKindAreRefused() throws {
        let gesture = WireFormat.line(Samples.events[0])
        XCTAssertThrowsError(try ServerMessage(line: Array(gesture.utf8)))
        XCTAssertThrowsError(try PressureEvent(json: try JSONParser.parse(ServerMessage.bye(reason: "x").line)))
        XCTAssertThrowsError(try ServerMessage(line: Array(#"{"type":"reply","request":"dance"}"#.utf8)))
        XCTAssertThrowsError(try ServerMessage(line: Array("not json".utf8)))
    }
}
