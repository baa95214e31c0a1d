@testable import PressureCore
@testable import PressureHub
@testable import PressureProtocol
import XCTest
import TestSupport

/// A frame's `moved` lines sent as one run (`LineFanout.swift`) give every client the bytes,
/// counts and closes that sending them one by one gives: two tables driven alike, one each way, through
/// random frames, other lines, partial writes, contacts that ended for a client, subscriptions that
/// change and queues small enough to coalesce and to overflow.
final class ClientTableMovedRunTests: XCTestCase {
    /// The two tables, their clients' ids (alike: both hand them out in order) and what each client read.
    struct Pair {
        var byLine: ClientTable
        var byRun: ClientTable
        var ids: [Int] = []
        var readByLine: [Int: [UInt8]] = [:]
        var readByRun: [Int: [UInt8]] = [:]
        var workByLine = Hub.Work()
        var workByRun = Hub.Work()
        /// What the walk went through: lines that closed a slow reader (its queue full: a `moved` never
        /// fills it, it is coalesced or left out), drains that told of losses.
        var closes = 0
        var losses = 0

        init(capacity: Int) {
            byLine = ClientTable(queueCapacity: capacity)
            byRun = ClientTable(queueCapacity: capacity)
        }

        mutating func connect(_ subscription: Subscription?) {
            let a = byLine.connect(peer: .unknown), b = byRun.connect(peer: .unknown)
            XCTAssertEqual(a, b)
            if let subscription {
                byLine.subscribe(a, subscription)
                byRun.subscribe(b, subscription)
            }
            ids.append(a)
        }

        /// The frame's lines: one `send` each into one table, gathered and sent once into the other.
        mutating func frame(_ events: [PressureEvent], device: Int, file: StaticString = #filePath, line: UInt = #line) {
            var clients = 0
            var closedAny = false
            for e in events {
                let s = byLine.send(.event(e), to: .subscribers(device: device, touches: true), &workByLine)
                clients += s.clients
                closedAny = closedAny || s.closedAny
            }
            for e in events { byRun.gatherMoved(e) }
            let run = byRun.sendGathered(&workByRun)
            XCTAssertFalse(byRun.hasGathered, file: file, line: line)
            XCTAssertEqual(run.clients, clients, "lines queued, counted per client", file: file, line: line)
            XCTAssertEqual(run.closedAny, closedAny, "a client closed for being too slow", file: file, line: line)
        }

        mutating func other(_ line: ClientTable.Line, to recipients: ClientTable.Recipients) {
            let a = byLine.send(line, to: recipients, &workByLine)
            let b = byRun.send(line, to: recipients, &workByRun)
            XCTAssertEqual(a.clients, b.clients)
            XCTAssertEqual(a.closedAny, b.closedAny)
            if a.closedAny { closes += 1 }
        }

        /// What the client's socket takes now, at most `limit` bytes, from each table.
        mutating func drain(_ id: Int, limit: Int, file: StaticString = #filePath, line: UInt = #line) {
            func take(_ t: inout ClientTable, _ work: inout Hub.Work) -> ([UInt8], DroppedTouches?) {
                var got: [UInt8] = []
                let dropped = t.drain(id, owesAnswer: false, { b in
                    let n = min(b.count, limit)
                    got += b.prefix(n)
                    return n
                }, &work)
                return (got, dropped)
            }
            let (a, droppedA) = take(&byLine, &workByLine)
            let (b, droppedB) = take(&byRun, &workByRun)
            readByLine[id, default: []] += a
            readByRun[id, default: []] += b
            XCTAssertEqual(String(decoding: a, as: UTF8.self), String(decoding: b, as: UTF8.self),
                           "client \(id) was written the same bytes", file: file, line: line)
            XCTAssertEqual(droppedA, droppedB, "client \(id) was told of the same losses", file: file, line: line)
            if droppedA != nil { losses += 1 }
            XCTAssertEqual(byLine.backlog(id), byRun.backlog(id), "client \(id)'s backlog", file: file, line: line)
        }

        mutating func stopHearing(_ id: Int, _ keys: [ContactKey]) {
            byLine.stopHearing(id, keys) { _ in true }
            byRun.stopHearing(id, keys) { _ in true }
        }

        mutating func subscribe(_ id: Int, _ s: Subscription) {
            byLine.subscribe(id, s)
            byRun.subscribe(id, s)
        }
    }

    static func moved(device: Int, contact: UInt64, _ rng: inout SplitMix64) -> PressureEvent {
        PressureEvent(kind: .touch(.moved), time: Timestamp(microseconds: Int64.random(in: 0...9_000_000, using: &rng)),
                      device: device, contact: contact, x: Int32.random(in: 0...4095, using: &rng),
                      y: Int32.random(in: 0...4095, using: &rng), force: Double.random(in: 0...4, using: &rng),
                      maximumPossibleForce: 4)
    }

    static let subscriptions: [Subscription?] = [
        Subscription(gestures: true, touches: true), Subscription(gestures: true, touches: true, deviceIDs: [1]),
        Subscription(gestures: true, touches: true, deviceIDs: [2]), Subscription(gestures: true, touches: false), nil,
    ]

    override func setUp() {
        continueAfterFailure = false  // a walk that went apart once goes on apart: its first difference says it
    }

    /// Returns what the walk went through (``Pair/closes``, ``Pair/losses``).
    @discardableResult
    func walk(seed: UInt64, capacity: Int, steps: Int) -> (closes: Int, losses: Int) {
        var rng = SplitMix64(state: seed)
        var pair = Pair(capacity: capacity)
        for _ in 0..<Int.random(in: 1...6, using: &rng) { pair.connect(Self.subscriptions.randomElement(using: &rng)!) }
        for _ in 0..<steps {
            let id = pair.ids.randomElement(using: &rng)!
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<50:
                let device = Int.random(in: 1...2, using: &rng)
                let contacts = (0..<UInt64.random(in: 1...10, using: &rng)).map { $0 + 1 }
                pair.frame(contacts.map { Self.moved(device: device, contact: $0, &rng) }, device: device)
            case 50..<60:
                pair.other(.message(.action(app: "a", action: "x")), to: .everyone)
            case 60..<65:
                pair.other(.message(.action(app: "a", action: "only")), to: .client(id))
            case 65..<90:
                pair.drain(id, limit: [0, 7, 100, 1000, .max].randomElement(using: &rng)!)
            case 90..<95:
                let key = ContactKey(device: Int.random(in: 1...2, using: &rng), contact: UInt64.random(in: 1...10, using: &rng))
                pair.stopHearing(id, [key])
            default:
                if let s = Self.subscriptions.randomElement(using: &rng)! { pair.subscribe(id, s) }
            }
        }
        for id in pair.ids {
            pair.drain(id, limit: .max)
            XCTAssertEqual(pair.readByLine[id, default: []].count, pair.readByRun[id, default: []].count, "seed \(seed): client \(id)")
            XCTAssertFalse(pair.byRun.hasPendingBytes(id), "seed \(seed): client \(id) has everything")
        }
        return (pair.closes, pair.losses)
    }

    func testARunGivesEveryClientWhatLineByLineGives() {
        // Roomy queues: everyone keeps up and shares, or falls behind on a partial write and catches up.
        for seed in 1...40 { walk(seed: UInt64(seed), capacity: 256 * 1024, steps: 300) }
    }

    func testARunGivesTheSameWhereQueuesCoalesceAndOverflow() {
        // 3 KiB queues: a run passes a sharer's touch limit, `moved` lines coalesce, slow readers are closed.
        var closes = 0, losses = 0
        for seed in 41...80 {
            let went = walk(seed: UInt64(seed), capacity: 3 * 1024, steps: 300)
            closes += went.closes
            losses += went.losses
        }
        XCTAssertGreaterThan(closes, 0, "the walks closed slow readers (runs then pass them by)")
        XCTAssertGreaterThan(losses, 0, "the walks coalesced and left out `moved` lines")
    }

    func testAClientThatKeepsUpTakesTheWholeRunFromTheSharedLines() {
        var rng = SplitMix64(state: 7)
        var t = ClientTable(queueCapacity: 64 * 1024)
        var work = Hub.Work()
        let a = t.connect(peer: .unknown), b = t.connect(peer: .unknown)
        t.subscribe(a, Subscription(gestures: true, touches: true))
        t.subscribe(b, Subscription(gestures: true, touches: true))
        let events = (1...10).map { Self.moved(device: 1, contact: UInt64($0), &rng) }
        var expected: [UInt8] = []
        for e in events {
            WireFormat.append(e, to: &expected)
            t.gatherMoved(e)
        }
        let sent = t.sendGathered(&work)
        XCTAssertEqual(sent.clients, 20)
        XCTAssertEqual(t.sharers, 2, "both share the run")
        XCTAssertEqual(t.shared, expected, "the run is in the shared lines once")
        XCTAssertEqual(Set(work.writable), [a, b])
        var got: [UInt8] = []
        _ = t.drain(a, owesAnswer: false, { got += $0; return $0.count }, &work)
        XCTAssertEqual(got, expected)
    }

    func testNothingIsEncodedWhenNobodyHearsTheDevicesTouches() {
        var rng = SplitMix64(state: 9)
        var t = ClientTable(queueCapacity: 64 * 1024)
        var work = Hub.Work()
        let a = t.connect(peer: .unknown)
        t.subscribe(a, Subscription(gestures: true, touches: true, deviceIDs: [2]))
        t.gatherMoved(Self.moved(device: 1, contact: 1, &rng))
        XCTAssertFalse(t.hasGathered)
        XCTAssertEqual(t.sendGathered(&work).clients, 0)
        XCTAssertTrue(t.shared.isEmpty)
    }
}
