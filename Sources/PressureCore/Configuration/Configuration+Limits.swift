/// How many clients the daemon serves at once (`docs/configuration.md`, `[pressured]`):
///
/// ```
/// [pressured]
/// MaxClients = 32      # a newcomer past this is turned away with `too-many-clients`
/// ```
extension Configuration {
    /// Enough for every app of a kiosk and its tools many times over, and small enough that the unit's
    /// `LimitNOFILE=512` (`systemd/pressured.service`) holds it with the devices and the daemon's own
    /// descriptors: the cap, not the descriptor limit, is what a flood of connections meets.
    public static let defaultMaximumClients = 256
    /// What `MaxClients` may be: each client may have 256 KiB queued, so 4096 bound the queues to 1 GiB.
    public static let maximumClientsRange = 1...4096

    /// The most clients served at once: `MaxClients` of the last `[pressured]` section that sets it, else
    /// ``defaultMaximumClients``. A reload that lowers it keeps every client connected; newcomers are
    /// turned away until fewer than it remain.
    public var maximumClients: Int {
        settingsSections.last { $0.maxClients != nil }?.maxClients ?? Self.defaultMaximumClients
    }
}
