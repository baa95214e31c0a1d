// libFuzzer target: request lines from several clients into the daemon's Hub, with touches in between.
// protocol.swift fuzzes decoding alone; here decoded requests also act -- regions set and removed,
// quick actions registered, actions chosen, settings changed, clients hanging up -- and a scripted press
// is routed through whatever regions the input set up, so the state the requests build is exercised too.
// Half the clients read what is queued for them after each step, as the daemon's loop would; the others
// read nothing until the end (their queues fill: touches coalesce, and they are disconnected `too-slow`).
// Every byte a client reads goes through Support/ClientStreamInvariants.swift: whole JSON lines, every
// contact it saw begin ended once (by the end, or when the daemon closed the connection), nothing after a
// fatal error. What the hub holds must come back to its baseline (the `status` counts): no finger after a
// press lifts, nothing but bounded quick actions once the device and every client are gone. A press may
// be held down across the steps that follow (clients subscribe, hang up or half-close while it is down),
// and is lifted by the next press.

import PressureCore
import PressureHub

/// One firm press at (x, y) on the fuzz device: down, rising pressure (peek, pop), up unless `held`.
/// Starts at `ms`.
func press(x: Int32, y: Int32, at ms: Int64, slot: Int32, id: Int32, held: Bool = false) -> [InputEvent] {
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
    if held { return out }
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
    var streams: [Int: ClientStreamInvariants] = [:]
    for id in clients { streams[id] = ClientStreamInvariants(name: "hub-requests: client \(id)") }
    var ms: Int64 = 1000
    var touchID: Int32 = 1
    var held: Int32? = nil  // the slot of a press held down

    func read(_ hub: inout Hub, _ id: Int) {
        hub.drain(client: id) { bytes in
            streams[id]?.read(bytes)
            return bytes.count
        }
    }

    /// A connection replaced by a new one at the same place (so there are always three).
    func replace(_ id: Int, _ hub: inout Hub, peer: PeerIdentity) {
        guard let i = clients.firstIndex(of: id) else { return }
        clients[i] = hub.connect(peer: peer)
        streams[clients[i]] = ClientStreamInvariants(name: "hub-requests: client \(clients[i])")
    }

    func drain(_ hub: inout Hub, everyone: Bool = false) {
        // Half the clients read everything; the others never do (their queues fill up) until the end.
        for id in clients where everyone || id % 2 == 1 { read(&hub, id) }
        var work = Hub.Work()
        hub.takeWork(&work)
        for id in work.disconnects.map(\.client) {
            // Closed once its last lines were written: they are whole, and end every contact it saw begin.
            streams[id]?.closedByDaemon()
            streams[id] = nil
            hub.disconnected(id)
            replace(id, &hub, peer: peers[id % peers.count])
        }
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
        case 7 where selector & 16 != 0:  // end of file from the client: its answers, then the daemon closes it
            hub.inputEnded(client: client)
        case 7:  // the client hangs up and another connects in its place
            hub.disconnected(client)
            streams[client] = nil
            replace(client, &hub, peer: peers[Int(selector >> 2) % peers.count])
        case 6:  // a press somewhere on the screen, routed through the regions set so far
            let x = Int32(line.first ?? 0) * 16, y = Int32(line.dropFirst().first ?? 0) * 16
            if let slot = held {  // the finger held down lifts first
                let up = [
                    InputEvent(time: Timestamp(microseconds: ms * 1000), type: EventType.abs, code: AbsCode.mtSlot, value: slot),
                    InputEvent(time: Timestamp(microseconds: ms * 1000), type: EventType.abs, code: AbsCode.mtTrackingID, value: -1),
                    InputEvent(time: Timestamp(microseconds: ms * 1000), type: EventType.syn, code: SynCode.report, value: 0),
                ]
                hub.handle(device: device, events: up[...])
                held = nil
                ms += 10
            }
            let hold = selector & 16 != 0
            let slot = Int32(selector & 7)
            hub.handle(device: device, events: press(x: x, y: y, at: ms, slot: slot, id: touchID, held: hold)[...])
            touchID += 1
            ms += 200
            hub.tick(now: Timestamp(microseconds: ms * 1000))
            if hold { held = slot }
            let status = hub.status
            if !hold && (status.contacts != 0 || status.regionContacts != 0) {
                fatalError("hub-requests: a lifted press is held: \(status)")
            }
        default:
            hub.receive(client: client, line: line[...], now: Timestamp(microseconds: ms * 1000))
        }
        drain(&hub)
    }
    // The device goes, then the daemon stops; or the daemon stops with fingers down (every client's
    // streams end before `bye`), then the device goes, whose ends must not come again.
    if size % 2 == 0 {
        hub.removeDevice(device)
        hub.tick(now: Timestamp(microseconds: (ms + 60_000) * 1000))
        hub.shutdown(reason: "fuzz")
    } else {
        hub.shutdown(reason: "fuzz")
        hub.removeDevice(device)
        hub.tick(now: Timestamp(microseconds: (ms + 60_000) * 1000))
    }
    // Everyone reads what is left (twice: a closing client's queue is written before its close comes):
    // the device is gone and the daemon stopped, so every contact any client saw begin has ended.
    drain(&hub, everyone: true)
    drain(&hub, everyone: true)
    for id in clients {
        streams[id]?.closedByDaemon()
        hub.disconnected(id)
    }
    let left = hub.status
    if left != DaemonStatus(quickActionApps: left.quickActionApps) || left.quickActionApps > Hub.maximumQuickActionApps {
        fatalError("hub-requests: left behind after every client and the device went: \(left)")
    }
    return 0
}
