import DeviceTestSupport
@testable import PressureCore
@testable import PressureHub
import XCTest

/// ``ClientStreams`` on its own, over a client table and a device table built by hand: what a stream that
/// starts while fingers are down opens with, and what one that stops ends with (a peek's `dismiss` before
/// its contact's `cancelled`, a region's peek tagged with its region), for what the new subscription does
/// not cover and nothing else.
final class ClientStreamsTests: XCTestCase {
    var devices = DeviceTable()
    var clients = ClientTable(queueCapacity: 64 * 1024)
    var work = Hub.Work()
    /// The device, and the client whose stream is looked at.
    var device = 0
    var client = 0

    override func setUpWithError() throws {
        let configuration = try TestDevices.configuration()
        device = try XCTUnwrap(devices.add(
            node: "n", description: TestDevices.slotted, udev: UdevDeviceProperties(), learned: nil,
            persistsLearning: false, assumed: [], clock: .hub, settings: configuration.settings,
            configuration: configuration, recordsTransitions: false, &work))
        client = clients.connect(peer: .unknown)
    }

    /// Two fingers down on the device (contacts 1 and 2), the second pressing hard, at 20 ms.
    func fingersDown() throws {
        var s = EventScript()
        s.frame(at: 0) { $0.slot(0, id: 10, x: 100, y: 100, p: 20) }
        s.frame(at: 20) { $0.slot(1, id: 11, x: 300, y: 300, p: 900) }
        let i = try XCTUnwrap(devices.index(of: device))
        for e in s.events { devices.entries[i].pipeline.handle(e) }
        devices.entries[i].lastTime = Timestamp(microseconds: 20_000)
        XCTAssertEqual(devices.entries[i].pipeline.liveContactCount, 2)
    }

    /// The client was sent the `began` of each contact down, then the peek of the second (broadcast, or
    /// routed for `region`).
    func sentBeganAndPeek(region: String? = nil) throws {
        let i = try XCTUnwrap(devices.index(of: device))
        for e in devices.entries[i].pipeline.currentTouches(.began, at: Timestamp(microseconds: 0)) {
            clients.send(.event(e), to: .client(client), &work)
        }
        let peek = try XCTUnwrap(
            devices.entries[i].pipeline.currentEvent(contact: 2, .gesture(.peek), at: Timestamp(microseconds: 20_000)))
        let line = region.map { .routed(peek, region: $0, app: nil, items: nil) } ?? ClientTable.Line.event(peek)
        clients.send(line, to: .client(client), &work)
        XCTAssertEqual(clients.openTouches(of: client).count, 2)
        XCTAssertEqual(clients.openPeeks(of: client).count, 1)
    }

    /// Lines as `type#contact` (with `@region` where one is tagged).
    func names(_ lines: [ClientTable.Line]) -> [String] {
        lines.map { line in
            switch line {
            case .message(let m): return "\(m)"
            case .event(let e): return "\(e.typeName)#\(e.contact)"
            case .routed(let e, let region, _, _): return "\(e.typeName)#\(e.contact)@\(region)"
            }
        }
    }

    func openings(from old: Subscription?) -> [String] {
        ClientStreams.openings(client, from: old, clients: clients, devices: devices).map {
            "\($0.typeName)#\($0.contact)"
        }
    }

    func testAStreamOfTouchesStartsWithTheBeganOfEachContactDown() throws {
        try fingersDown()
        XCTAssertEqual(openings(from: nil), [], "not subscribed")
        clients.subscribe(client, Subscription(gestures: true, touches: false))
        XCTAssertEqual(openings(from: nil), [], "gestures only")
        clients.subscribe(client, Subscription(touches: true, deviceIDs: [device + 1]))
        XCTAssertEqual(openings(from: nil), [], "another device")
        clients.subscribe(client, Subscription(touches: true))
        XCTAssertEqual(openings(from: nil), ["touch#1", "touch#2"])
        XCTAssertEqual(ClientStreams.openings(client, from: nil, clients: clients, devices: devices).map(\.phase),
                       [.began, .began])
        XCTAssertEqual(openings(from: Subscription(gestures: true, touches: false)), ["touch#1", "touch#2"],
                       "it heard only gestures before")
        XCTAssertEqual(openings(from: Subscription(touches: true)), [], "it heard them already")
        XCTAssertEqual(openings(from: Subscription(touches: true, deviceIDs: [device])), [])
    }

    func testNoFingerDownOpensNothing() {
        clients.subscribe(client, Subscription(touches: true))
        XCTAssertEqual(openings(from: nil), [])
    }

    func testAStreamThatStopsDismissesItsPeeksThenCancelsItsContacts() throws {
        try fingersDown()
        clients.subscribe(client, Subscription(touches: true))
        try sentBeganAndPeek()
        XCTAssertEqual(names(ClientStreams.endings(client, keeping: nil, clients: clients, devices: devices)),
                       ["dismiss#2", "touch#1", "touch#2"])
        let ends = ClientStreams.endings(client, keeping: nil, clients: clients, devices: devices).compactMap { line in
            if case .event(let e) = line { return e.phase } else { return nil }
        }
        XCTAssertEqual(ends, [.cancelled, .cancelled])
    }

    func testWhatTheNewSubscriptionStillCoversGoesOn() throws {
        try fingersDown()
        clients.subscribe(client, Subscription(touches: true))
        try sentBeganAndPeek()
        XCTAssertEqual(names(ClientStreams.endings(
            client, keeping: Subscription(gestures: true, touches: true), clients: clients, devices: devices)), [])
        XCTAssertEqual(names(ClientStreams.endings(
            client, keeping: Subscription(touches: true, deviceIDs: [device]), clients: clients, devices: devices)), [])
        // Gestures only from now: the touch streams end, and so does the peek of a contact that ended.
        XCTAssertEqual(names(ClientStreams.endings(
            client, keeping: Subscription(gestures: true, touches: false), clients: clients, devices: devices)),
                       ["dismiss#2", "touch#1", "touch#2"])
        // Another device's touches only: everything of this one ends.
        XCTAssertEqual(names(ClientStreams.endings(
            client, keeping: Subscription(touches: true, deviceIDs: [device + 1]), clients: clients, devices: devices)),
                       ["dismiss#2", "touch#1", "touch#2"])
    }

    func testARegionsPeekEndsOnlyWithTheStreamOrItsContactAndSaysItsRegion() throws {
        try fingersDown()
        clients.subscribe(client, Subscription(gestures: true, touches: false))
        try sentBeganAndPeek(region: "icon")
        XCTAssertEqual(names(ClientStreams.endings(
            client, keeping: Subscription(gestures: false, touches: true), clients: clients, devices: devices)), [],
                       "a region's peek is its owner's whatever it subscribes to")
        XCTAssertEqual(names(ClientStreams.endings(client, keeping: nil, clients: clients, devices: devices)),
                       ["dismiss#2@icon", "touch#1", "touch#2"])
    }

    func testAContactTheDeviceNoLongerKnowsIsNotEnded() throws {
        try fingersDown()
        clients.subscribe(client, Subscription(touches: true))
        try sentBeganAndPeek()
        let i = try XCTUnwrap(devices.index(of: device))
        devices.remove(at: i)
        XCTAssertEqual(names(ClientStreams.endings(client, keeping: nil, clients: clients, devices: devices)), [],
                       "its device went: the hub ends those as the device goes")
    }
}
