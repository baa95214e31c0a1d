/// What the daemon holds right now, the answer to `status`: for operators (`pressurectl status`) and for
/// leak checks. Every count returns to its baseline once the fingers lift, the devices go and the clients
/// hang up; what stays (dynamic quick actions, for a launcher to show while the app is not running) is
/// bounded.
public struct DaemonStatus: Hashable, Sendable {
    /// Devices served.
    public var devices: Int
    /// Open client connections, subscribed or not.
    public var clients: Int
    /// Connections that subscribed.
    public var subscribers: Int
    /// Fingers down, across every device.
    public var contacts: Int
    /// Of those, fingers that began in a region (and so belong to its owner).
    public var regionContacts: Int
    /// Regions registered by the open connections.
    public var regions: Int
    /// Apps with quick actions registered at run time.
    public var quickActionApps: Int
    /// Chosen actions waiting for their app to connect.
    public var pendingChoices: Int
    /// Bytes queued for clients and not yet written.
    public var queuedBytes: Int

    public init(devices: Int = 0, clients: Int = 0, subscribers: Int = 0, contacts: Int = 0, regionContacts: Int = 0,
                regions: Int = 0, quickActionApps: Int = 0, pendingChoices: Int = 0, queuedBytes: Int = 0) {
        self.devices = devices
        self.clients = clients
        self.subscribers = subscribers
        self.contacts = contacts
        self.regionContacts = regionContacts
        self.regions = regions
        self.quickActionApps = quickActionApps
        self.pendingChoices = pendingChoices
        self.queuedBytes = queuedBytes
    }

    /// The counts by name, in the order the protocol document shows them.
    public var fields: KeyValuePairs<String, Int> {
        ["devices": devices, "clients": clients, "subscribers": subscribers, "contacts": contacts,
         "regionContacts": regionContacts, "regions": regions, "quickActionApps": quickActionApps,
         "pendingChoices": pendingChoices, "queuedBytes": queuedBytes]
    }

    /// `{"devices":1,"clients":2,…}`
    public func append(to out: inout [UInt8]) { JSONWriter.appendCounts(fields, to: &out) }
}

extension DaemonStatus {
    /// Decodes the `status` object of a `status` reply; every count is required, keys it does not know
    /// are passed over.
    public init(json: JSONValue) throws(MessageDecodingError) {
        try self.init(MessageFields(json, what: "the status"))
    }

    init(_ f: MessageFields) throws(MessageDecodingError) {
        self.init(
            devices: try f.int("devices"), clients: try f.int("clients"), subscribers: try f.int("subscribers"),
            contacts: try f.int("contacts"), regionContacts: try f.int("regionContacts"), regions: try f.int("regions"),
            quickActionApps: try f.int("quickActionApps"), pendingChoices: try f.int("pendingChoices"),
            queuedBytes: try f.int("queuedBytes"))
    }
}
