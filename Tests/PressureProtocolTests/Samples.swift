import PressureProtocol

/// Wire values for the round trips, one of each shape. Decimals are ones the wire writes exactly (at
/// most four places: it rounds there), times whole microseconds; a device's reason for unavailable
/// force is as a client receives it (``ForceUnavailableReason/other(code:explanation:)``).
enum Samples {
    static let screen = ScreenGeometry(width: 1920, height: 1080, rotation: .quarter, matrix: [1, 0, 0.25, 0, 1, -0.5])

    static let fullDevice = DeviceInfo(
        id: 1, name: "Test \"MT\" Touchscreen ☃", node: "/dev/input/event5", kind: .touchscreen,
        forceCapability: .available, maximumPossibleForce: 6.6667, widthMillimetres: 255.9375, heightMillimetres: 144,
        xAxis: AxisRange(minimum: 0, maximum: 4095), yAxis: AxisRange(minimum: -10, maximum: 2303), screen: screen,
        assumed: ["axis ranges", "protocol B"])

    /// What an older daemon sent, and a pad without size: no `width`, `height`, `screen`, `assumed`.
    static let bareDevice = DeviceInfo(
        id: 2, name: "Resistive", node: "replay:captures/a b.evemu", kind: .touchpad, forceCapability: .unavailable,
        forceUnavailable: "learning", maximumPossibleForce: 0, xAxis: AxisRange(minimum: Int32.min, maximum: Int32.max),
        yAxis: AxisRange(minimum: 0, maximum: 1))

    static let settings = PublicSettings(forceTouch: true, sensitivity: .medium)

    static let status = DaemonStatus(
        devices: 2, clients: 3, subscribers: 1, contacts: 4, regionContacts: 1, regions: 5, quickActionApps: 6,
        pendingChoices: 7, queuedBytes: 80_000)

    static let learningForce = DeviceForceStatus(
        device: 1, forceCapability: .unavailable,
        reason: ForceUnavailableReason(code: "learning", explanation: "learning the average touch (3 of 8 ordinary touches)"),
        averageSource: .learned, floor: 0, top: 1000, samples: 3, accepted: 3, maximumPossibleForce: 0)

    /// Latency figures with samples in the first bucket, a middle one and +Inf.
    static let latency: DeviceLatency = {
        var queue = LatencyHistogram()
        for us: Int64 in [0, 10, 150, 7_000_000] { queue.record(microseconds: us) }
        var delivery = LatencyHistogram()
        delivery.record(microseconds: 320)
        return DeviceLatency(device: 1, node: "/dev/input/event5", queue: queue, delivery: delivery, unmeasured: 3)
    }()

    static let configuredForce = DeviceForceStatus(
        device: 2, forceCapability: .available, averageSource: .configured, floor: -5, average: 403.5, top: 1024,
        samples: 64, accepted: 212, median: 401, peekRaw: 645, popRaw: 806, peekForce: 1.6, popForce: 2,
        maximumPossibleForce: 2.54)

    static let items = [
        QuickActionItem(id: "compose", title: "New Message", icon: "compose"),
        QuickActionItem(id: "inbox", title: "Inbox", subtitle: "3 unread"),
    ]

    static let region = Region(
        id: "icon:mail", owner: 0, x: 96.5, y: -0.1, width: 96, height: 1e-3, z: -3, wants: [.quickActions, .longPress],
        app: "org.example.mail", items: items)

    /// Request ids as clients send them: none, numbers, strings, `null`, containers.
    static let ids: [JSONValue?] = [nil, 7, 2.5, "r-1", .null, ["a": [1, "x"]]]

    static let requests: [ClientRequest] = {
        var wholeSubscription = Subscription(gestures: false, touches: true, devices: true, deviceIDs: [3, 1, 2])
        wholeSubscription.app = "org.example.mail"
        return [
            .subscribe(Subscription()), .subscribe(wholeSubscription), .subscribe(Subscription(gestures: false, deviceIDs: [])),
            .devices, .ping, .status,
            .set(SettingsChange(forceTouch: false)), .set(SettingsChange(sensitivity: .firm)),
            .set(SettingsChange(forceTouch: true, sensitivity: .light)), .set(SettingsChange(haptics: false)),
            .reload, .resetLearning(device: nil), .resetLearning(device: 3),
            .setRegion(region), .setRegion(Region(id: "r", owner: 0, x: 0, y: 0, width: 1, height: 1, wants: [])),
            .setRegion(Region(id: "own", owner: 0, x: 0, y: 0, width: 1, height: 1, haptics: false)),
            .removeRegion(id: "icon:mail"), .setQuickActions(items), .setQuickActions([]),
            .chooseAction(app: "org.example.mail", action: "compose"),
        ]
    }()

    static let replies: [ServerMessage.Reply] = [
        .subscribe(Subscription()), .subscribe(Subscription(gestures: false, touches: true, devices: true, deviceIDs: [3, 1])),
        .devices([fullDevice, bareDevice]), .devices([]),
        .ping(time: Timestamp(microseconds: 12_000_175)), .ping(time: Timestamp(microseconds: -500_000)),
        .status(status, force: [learningForce, configuredForce]), .status(DaemonStatus(), force: []),
        .status(DaemonStatus(devices: 1), force: [], latency: [latency, DeviceLatency(device: 2, node: "replay:a b.evemu")]),
        .status(status, force: [configuredForce], activity: DaemonActivity(wakeups: 1 << 40, accepted: 61, refused: 28, acceptErrors: 29)),
        .status(status, force: [], actions: [
            ActionStatus(device: 1, gesture: "pop", does: "rightClick", source: "[action] /etc/pressured/pressured.conf:7"),
            ActionStatus(device: 2, gesture: "longPress", does: "key:Ctrl+C", areas: ["960x1080+0+0", "10x10+1910+1070"],
                         source: "[action] a \"b\".conf:1"),
        ]),
        .set(PublicSettings(forceTouch: false, sensitivity: .firm)), .set(PublicSettings(forceTouch: true, sensitivity: .light, haptics: false)), .reload(settings),
        .resetLearning(devices: [1, 3]), .resetLearning(devices: []),
    ]

    static let regionReplies: [ServerMessage.RegionReply] = [
        .setRegion(region: "icon:mail", items: ["compose", "inbox"], cut: ["a", "b"]),
        .setRegion(region: "r", items: [], cut: []),
        .removeRegion(region: "icon:mail"),
        .setQuickActions(app: "org.example.mail", items: ["compose"], cut: ["later"]),
        .chooseAction(app: "org.example.mail", action: "compose", delivered: true),
        .chooseAction(app: "org.example.mail", action: "compose", delivered: false),
    ]

    static let messages: [ServerMessage] = {
        var all: [ServerMessage] = [
            .hello(devices: [fullDevice, bareDevice], settings: settings),
            .hello(protocolVersion: 2, version: "9.9", devices: [], settings: settings),
        ]
        for (i, reply) in replies.enumerated() { all.append(.reply(id: ids[i % ids.count], reply)) }
        for (i, reply) in regionReplies.enumerated() { all.append(.regionReply(id: ids[i % ids.count], reply)) }
        for (i, code) in ProtocolError.Code.allCases.enumerated() {
            all.append(.error(ProtocolError(id: ids[i % ids.count], code: code, message: "m \"\(code)\"\n")))
            all.append(.error(ProtocolError(code: code, message: "", fatal: !code.isFatal)))
        }
        for change in [ServerMessage.DeviceChange.added, .removed, .changed] {
            all.append(.device(change: change, fullDevice))
            all.append(.device(change: change, bareDevice))
        }
        all += [
            .settings(settings), .dropped(DroppedTouches(touches: 1234)),
            .dropped(DroppedTouches(
                touches: 15, contacts: [.init(device: 1, contact: 9, moved: 12), .init(device: 2, contact: 1 << 40, moved: 3)])),
            .dropped(DroppedTouches(touches: 40, contacts: [.init(device: 1, contact: 3, moved: 1)], truncated: true)),
            .bye(reason: "shutdown"), .bye(reason: ""),
            .action(app: "org.example.mail", action: "compose"),
        ]
        return all
    }()

    /// Every gesture and every touch phase, with and without screen positions and progress.
    static let events: [PressureEvent] = {
        var all: [PressureEvent] = []
        for (i, g) in GestureKind.allCases.enumerated() {
            all.append(PressureEvent(
                kind: .gesture(g), time: Timestamp(microseconds: 4_591_874 + Int64(i)), device: 1, contact: 3,
                x: 2102, y: -2970, screenX: 96.5, screenY: 40, force: 1.6494, maximumPossibleForce: 6.6494))
        }
        for phase in [PressureEvent.TouchPhase.began, .moved, .ended, .cancelled] {
            all.append(PressureEvent(
                kind: .touch(phase), time: Timestamp(microseconds: 1), device: 2, contact: UInt64(1) << 52,
                x: Int32.min, y: Int32.max, force: 0, maximumPossibleForce: 0, progress: phase == .moved ? 0.25 : nil))
        }
        return all
    }()

    static let tags: [RegionTags] = [
        RegionTags(region: "icon:mail"), RegionTags(region: "icon:mail", app: "org.example.mail", items: items),
        RegionTags(region: "row 3", items: []),
    ]
}
