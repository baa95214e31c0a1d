// libFuzzer target: request lines from several clients into the daemon's Hub, with touches in between.
// protocol.swift fuzzes decoding alone; here decoded requests also act -- regions set and removed,
// quick actions registered, actions chosen, settings changed, clients hanging up -- and a scripted press
// is routed through whatever regions the input set up, so the state the requests build is exercised too.
// Every client's output is drained after each step, as the daemon's loop would. What the hub holds must
// come back to its baseline (the `status` counts): no finger after a press lifts, nothing but bounded
// quick actions once the device and every client are gone. (A press is whole within one step, so an owner
// hanging up mid-press is HubRegionTests' to check.)

import PressureCore

/// One firm press at (x, y) on the fuzz device: down, rising pressure (peek, pop), up. Starts at `ms`.
func press(x: Int32, y: Int32, at ms: Int64, slot: Int32, id: Int32) -> [InputEvent] {
    var out: [InputEvent] = []
    func add(_ t: Int64, _ type: UInt16, _ code: UInt16, _ v: Int32) {
        out.append(InputEvent(time: Timestamp(microseconds: t * 1000), type: type, code: code, value: v))
    }
    add(ms, EventType.abs, AbsCode.mtSlot, slot)
    add(ms, EventType.abs, AbsCode.mtTrackingID, id)
    add(ms, EventType.abs, AbsCode.mtPositionX, x)
    add(ms, EventType.abs, AbsCode.mtPositionY, y)
    for (i, p) in [Int32(50), 300, 600, 1000].enumerated() {
        add(ms + Int64(i) * 20, EventType.abs, AbsCode.mtSlot, slot)
        add(ms + Int64(i) * 20, EventType.abs, AbsCode.mtPressure, p)
        add(ms + Int64(i) * 20, EventType.syn, SynCode.report, 0)
    }
    add(ms + 100, EventType.abs, AbsCode.mtSlot, slot)
    add(ms + 100, EventType.abs, AbsCode.mtTrackingID, -1)
    add(ms + 100, EventType.syn, SynCode.report, 0)
    return out
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHubRequests(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // A small queue, so the too-slow and dropped-touches paths are reached with short inputs.
    // Closed apps, a launcher and a control group, and clients of several identities: refusals too.
    let access = try? Configuration.parse(
        "[pressured]\nControlGroup = 20\nLauncherUser = 1002\n[app a]\nUser = 1001\n[app org.example.mail]\nGroup = 30\n",
        file: "fuzz.conf")
    var hub = Hub(configuration: access ?? Configuration(), queueCapacity: 4096, daemonUser: 999)
    guard let device = hub.addDevice(node: "fuzz", description: FuzzDevices.slotted) else { return 0 }
    let peers = [
        PeerIdentity.root, PeerIdentity(uid: 1001, gid: 30), PeerIdentity(uid: 1002, gid: 1, groups: [20]),
        PeerIdentity(uid: 1003, gid: 1), PeerIdentity.unknown,
    ]
    var clients = [hub.connect(peer: peers[0]), hub.connect(peer: peers[1]), hub.connect(peer: peers[3])]
    var ms: Int64 = 1000
    var touchID: Int32 = 1

    func drain(_ hub: inout Hub) {
        var work = Hub.Work()
        hub.takeWork(&work)
        for id in work.disconnects.map(\.client) { hub.disconnected(id) }
        // Half the clients read everything; the others never do (their queues fill up).
        for id in clients where id % 2 == 1 { hub.drain(client: id) { $0.count } }
    }

    // Each line: the first byte picks the client (and sometimes an action), the rest is the request.
    var start = 0
    for i in 0...size where i == size || bytes[i] == 0x0a {
        defer { start = i + 1 }
        guard i > start else { continue }
        let selector = bytes[start]
        let line = Array(bytes[(start + 1)..<i])
        let client = clients[Int(selector) % clients.count]
        switch selector >> 5 {
        case 7:  // the client hangs up and another connects in its place
            hub.disconnected(client)
            clients[Int(selector) % clients.count] = hub.connect(peer: peers[Int(selector >> 2) % peers.count])
        case 6:  // a press somewhere on the screen, routed through the regions set so far
            let x = Int32(line.first ?? 0) * 16, y = Int32(line.dropFirst().first ?? 0) * 16
            hub.handle(device: device, events: press(x: x, y: y, at: ms, slot: Int32(selector & 7), id: touchID)[...])
            touchID += 1
            ms += 200
            hub.tick(now: Timestamp(microseconds: ms * 1000))
            let held = hub.status
            if held.contacts != 0 || held.regionContacts != 0 { fatalError("hub-requests: a lifted press is held: \(held)") }
        default:
            hub.receive(client: client, line: line[...], now: Timestamp(microseconds: ms * 1000))
        }
        drain(&hub)
    }
    hub.removeDevice(device)
    hub.tick(now: Timestamp(microseconds: (ms + 60_000) * 1000))
    hub.shutdown(reason: "fuzz")
    drain(&hub)
    for id in clients { hub.disconnected(id) }
    let left = hub.status
    if left != DaemonStatus(quickActionApps: left.quickActionApps) || left.quickActionApps > Hub.maximumQuickActionApps {
        fatalError("hub-requests: left behind after every client and the device went: \(left)")
    }
    return 0
}
