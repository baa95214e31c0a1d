import PressureCore

/// Who may connect: the client cap (`MaxClients`, ``Configuration/maximumClients``). The loop asks before
/// it hands the hub a newcomer; one turned away gets an error instead of `hello` and is closed, and the
/// clients already connected never notice.
extension Hub {
    /// The most clients served at once, under the configuration in force.
    public var maximumClients: Int { configuration.maximumClients }

    /// Whether a newcomer may connect now: fewer than ``maximumClients`` are connected. Clients being
    /// closed count until the loop has closed them: they still hold a descriptor.
    public var hasRoomForClient: Bool { clients.count < maximumClients }

    /// A newcomer turned away at the cap (`peer`: who it is): the line to send it instead of `hello` (a
    /// fatal `too-many-clients` error), then the loop closes it. Logged as a client line.
    public mutating func refuseNewcomer(peer: PeerIdentity) -> [UInt8] {
        let n = clients.count
        let why = "\(n) client\(n == 1 ? " is" : "s are") connected, as many as MaxClients = \(maximumClients) allows"
        work.notices.append(.client("turned a client away (\(peer)): \(why)"))
        var line: [UInt8] = []
        ServerMessage.error(.tooManyClients(why)).append(to: &line)
        return line
    }
}
